package dev.limiter.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Keys under {@code limiter.*} that bind to nothing fail start-up naming the key, the
 * element that is unknown, and the nearest known property.
 */
class UnknownLimiterPropertiesTests {

	@Test
	void checkWhenAKeyIsATypoOfAPropertyShouldSuggestIt() {
		assertThat(unknown("limiter.budgets.standard.window.minute.limit", "1"))
			.hasMessage("Invalid limiter configuration: 'limiter.budgets.standard.window.minute.limit' is not a "
					+ "limiter property: 'window' is unknown under 'limiter.budgets.standard'; did you mean "
					+ "'limiter.budgets.standard.windows'?");
	}

	@Test
	void checkWhenATopLevelKeyIsATypoShouldSuggestTheProperty() {
		assertThat(unknown("limiter.heders", "both")).hasMessage("Invalid limiter configuration: 'limiter.heders' is "
				+ "not a limiter property: 'heders' is unknown under 'limiter'; did you mean 'limiter.headers'?");
	}

	@Test
	void checkWhenAWindowFieldIsATypoShouldSuggestItInsideTheMapEntry() {
		assertThat(unknown("limiter.budgets.standard.windows.minute.limt", "5"))
			.hasFieldOrPropertyWithValue("property", "limiter.budgets.standard.windows.minute.limt")
			.hasMessageEndingWith("'limt' is unknown under 'limiter.budgets.standard.windows.minute'; did you mean "
					+ "'limiter.budgets.standard.windows.minute.limit'?");
	}

	@Test
	void checkWhenARouteFieldIsATypoShouldSuggestItInsideTheListElement() {
		assertThat(unknown("limiter.routes[0].expensiv", "true")).hasMessageEndingWith(
				"'expensiv' is unknown under 'limiter.routes[0]'; did you mean 'limiter.routes[0].expensive'?");
	}

	@Test
	void checkWhenNothingIsNearShouldListTheKnownProperties() {
		assertThat(unknown("limiter.redis.zzzzzzzzzz", "1").getReason())
			.startsWith("is not a limiter property: 'zzzzzzzzzz' is unknown under 'limiter.redis'; known: [")
			.contains("key-prefix", "timeout");
	}

	@Test
	void checkWhenAKeyIsBelowAPlainValueShouldNameItWithoutSuggestion() {
		assertThat(unknown("limiter.headers.x", "1").getReason())
			.isEqualTo("is not a limiter property: 'x' is unknown under 'limiter.headers'");
	}

	@Test
	void checkWhenEveryKeyIsKnownShouldPass() {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("limiter.budgets.gold.windows.minute.limit", "5");
		values.put("limiter.budgets.gold.windows.minute.duration", "1m");
		values.put("limiter.budgets.gold.concurrency.max", "2");
		values.put("limiter.routes[0].pattern", "/x");
		values.put("limiter.routes[0].methods[0]", "GET");
		values.put("limiter.auth-guard.threshold", "5");
		values.put("limiter.max-request-body", "1MB");
		assertThatCode(() -> UnknownLimiterProperties.check(environment(values))).doesNotThrowAnyException();
	}

	@Test
	void checkWhenTheUnknownKeyIsASystemPropertyShouldIgnoreIt() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
					new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
							Map.of("limiter.test.redis-server", "embedded")));
		assertThatCode(() -> UnknownLimiterProperties.check(environment)).doesNotThrowAnyException();
	}

	private static InvalidLimiterConfigurationException unknown(String key, String value) {
		InvalidLimiterConfigurationException ex = catchThrowableOfType(InvalidLimiterConfigurationException.class,
				() -> UnknownLimiterProperties.check(environment(Map.of(key, value))));
		assertThat(ex).as("rejected").isNotNull();
		assertThat(ex.getProperty()).isEqualTo(key);
		return ex;
	}

	private static StandardEnvironment environment(Map<String, Object> values) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("application", values));
		return environment;
	}

}
