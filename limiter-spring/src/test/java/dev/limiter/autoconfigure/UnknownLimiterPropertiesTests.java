package dev.limiter.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

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
	void checkWhenASystemPropertyIsATypoShouldNameTheSystemPropertyAndSuggestTheNearOne() {
		StandardEnvironment environment = new StandardEnvironment();
		systemProperties(environment, Map.of("limiter.heders", "both"));
		assertThat(catchThrowableOfType(UnknownLimiterPropertyException.class,
				() -> UnknownLimiterProperties.check(environment)))
			.hasMessage("Invalid limiter configuration: system property 'limiter.heders' is not a limiter property: "
					+ "'heders' is unknown under 'limiter'; did you mean 'limiter.headers'?");
	}

	@Test
	void checkWhenASystemPropertyIsUnderTheTestToolingsNamesShouldIgnoreIt() {
		StandardEnvironment environment = new StandardEnvironment();
		systemProperties(environment, Map.of("limiter.test.redis-server", "embedded"));
		assertThatCode(() -> UnknownLimiterProperties.check(environment)).doesNotThrowAnyException();
	}

	@Test
	void checkWhenAnEnvironmentVariableIsATypoShouldNameTheVariableAndTheNearProperty() {
		UnknownLimiterPropertyException ex = unknownVariable("LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT", "1");
		assertThat(ex).hasMessage("Invalid limiter configuration: environment variable "
				+ "'LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT' (read as 'limiter.budgets.standard.window.minute.limit') "
				+ "is not a limiter property: 'window' is unknown under 'limiter.budgets.standard'; did you mean "
				+ "'limiter.budgets.standard.windows'?");
		assertThat(ex.getVariable()).isEqualTo("LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT");
		assertThat(ex.getProperty()).isEqualTo("limiter.budgets.standard.window.minute.limit");
	}

	@Test
	void checkWhenAnEnvironmentVariableIsATopLevelTypoShouldSuggestTheProperty() {
		assertThat(unknownVariable("LIMITER_HEDERS", "both"))
			.hasMessageEndingWith("'heders' is unknown under 'limiter'; did you mean 'limiter.headers'?");
	}

	@Test
	void checkWhenAnEnvironmentVariableNamesAWindowFieldWronglyShouldSuggestTheField() {
		assertThat(unknownVariable("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_LIMT", "5"))
			.hasMessageEndingWith("'limt' is unknown under 'limiter.budgets.gold.windows.minute'; did you mean "
					+ "'limiter.budgets.gold.windows.minute.limit'?");
	}

	@Test
	void checkWhenAnEnvironmentVariableIsARouteFieldTypoShouldSuggestTheField() {
		Map<String, Object> variables = new LinkedHashMap<>();
		variables.put("LIMITER_ROUTES_0_PATTERN", "/x");
		variables.put("LIMITER_ROUTES_0_EXPENSIV", "true");
		assertThat(catchThrowableOfType(UnknownLimiterPropertyException.class,
				() -> UnknownLimiterProperties.check(withVariables(variables))))
			.hasMessageContaining("'LIMITER_ROUTES_0_EXPENSIV'")
			.hasMessageEndingWith("did you mean 'limiter.routes[0].expensive'?");
	}

	@ParameterizedTest
	@ValueSource(strings = { "LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_LIMIT=5",
			"limiter_budgets_standard_windows_minute_limit=5", "LIMITER_HEADERS=both", "LIMITER_ENABLED=true",
			"LIMITER_STORE=memory", "LIMITER_DEFAULTBUDGET=standard", "LIMITER_DEFAULT_BUDGET=standard",
			"LIMITER_KEYBY=principal", "LIMITER_KEY_BY=principal", "LIMITER_AUTHGUARD_THRESHOLD=5",
			"LIMITER_AUTH_GUARD_THRESHOLD=5", "LIMITER_AUTH_GUARD_REMEMBER_AUTHENTICATED=1m",
			"LIMITER_MAXREQUESTBODY=1MB", "LIMITER_MAX_REQUEST_BODY=1MB", "LIMITER_REDIS_KEY_PREFIX=app",
			"LIMITER_REDIS_TIMEOUT=2s", "LIMITER_MEMORY_MAX_KEYS=10", "LIMITER_FALLBACK_MAXKEYS=10",
			"LIMITER_INVENTORY_STRICT=true", "LIMITER_BUDGET_DEFINITIONS_MAX_CACHED=5", "LIMITER_OPENAPI_ENABLED=false",
			"LIMITER_CONFIG_CHECK_ENVIRONMENT=true", "LIMITER_BUDGETS_STANDARD_CONCURRENCY_MAX=3",
			"LIMITER_BUDGETS_STANDARD_CONCURRENCY_LEASE=10s", "LIMITER_BUDGETS_STANDARD_COUNT_REFUSED=true",
			"LIMITER_BUDGETS_STANDARD_ON_STORE_FAILURE=closed", "LIMITER_BUDGETS_ANONYMOUS_SHADOW=true",
			"LIMITER_BUDGETS_ANONYMOUS_KEYBY=principal",
			"LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_ALGORITHM=sliding-window",
			"LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_RESOLUTION=2s", "LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_LIMIT=5",
			"LIMITER_BUDGETS_TIER2_WINDOWS_PER10S_LIMIT=5", "LIMITER_BUDGETS_GOLD_WINDOWS_10S_LIMIT=5",
			"LIMITER_BUDGETS_COMPLETION_WINDOWS_TOKENS_UNIT=tokens", "LIMITER_ROUTES_0_PATTERN=/x",
			"LIMITER_ROUTES_0_METHODS=GET,POST", "LIMITER_ROUTES_0_METHODS_0=GET", "LIMITER_ROUTES_0_BUDGET=standard",
			"LIMITER_ROUTES_0_ESTIMATES_TOKENS=100", "LIMITER_ROUTES_0_EXEMPT=true", "LIMITER_ROUTES_0_REASON=probe",
			"LIMITER_TEST_REDIS_SERVER=embedded", "LIMITERS_ANYTHING=1", "SPRING_PROFILES_ACTIVE=redis" })
	void checkWhenAnEnvironmentVariableBindsThroughRelaxedBindingShouldPass(String variable) {
		String[] nameAndValue = variable.split("=", 2);
		assertThatCode(() -> UnknownLimiterProperties.check(withVariables(Map.of(nameAndValue[0], nameAndValue[1]))))
			.doesNotThrowAnyException();
	}

	@Test
	void checkWhenAVariableSetsAPropertyAFileSetsTooShouldPass() {
		StandardEnvironment environment = withVariables(Map.of("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_LIMIT", "5",
				"LIMITER_BUDGETS_MY_BUDGET_WINDOWS_MINUTE_LIMIT", "7"));
		Map<String, Object> file = new LinkedHashMap<>();
		file.put("limiter.budgets.gold.windows.minute.limit", "9");
		file.put("limiter.budgets.gold.windows.minute.duration", "1m");
		file.put("limiter.budgets.my-budget.windows.minute.limit", "9");
		file.put("limiter.budgets.my-budget.windows.minute.duration", "1m");
		environment.getPropertySources().addFirst(new MapPropertySource("application", file));
		assertThatCode(() -> UnknownLimiterProperties.check(environment)).doesNotThrowAnyException();
	}

	@Test
	void checkWhenAPropertyIsWrittenWithoutAValueShouldPass() {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("limiter.budgets.standard.key-by", "");
		values.put("limiter.max-request-body", "");
		assertThatCode(() -> UnknownLimiterProperties.check(environment(values))).doesNotThrowAnyException();
	}

	@Test
	void checkWhenAVariableIsSetWithoutAValueShouldPass() {
		assertThatCode(
				() -> UnknownLimiterProperties.check(withVariables(Map.of("LIMITER_BUDGETS_STANDARD_KEY_BY", ""))))
			.doesNotThrowAnyException();
	}

	@Test
	void checkWhenAVariableNamesADashedBudgetNoFileDeclaresShouldFailNamingIt() {
		assertThat(unknownVariable("LIMITER_BUDGETS_MY_BUDGET_WINDOWS_MINUTE_LIMIT", "7"))
			.hasMessageContaining("(read as 'limiter.budgets.my.budget.windows.minute.limit')");
	}

	@Test
	void checkWhenTheEnvironmentCheckIsOffShouldIgnoreVariablesAndSystemProperties() {
		StandardEnvironment environment = withVariables(
				Map.of("LIMITER_HEDERS", "both", "LIMITER_CONFIG_CHECK_ENVIRONMENT", "false"));
		systemProperties(environment, Map.of("limiter.heders", "both"));
		assertThatCode(() -> UnknownLimiterProperties.check(environment)).doesNotThrowAnyException();
	}

	@Test
	void checkWhenTheEnvironmentCheckIsOffShouldStillCheckFiles() {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("limiter.config-check.environment", "false");
		values.put("limiter.heders", "both");
		assertThat(catchThrowableOfType(UnknownLimiterPropertyException.class,
				() -> UnknownLimiterProperties.check(environment(values))))
			.hasMessageEndingWith("did you mean 'limiter.headers'?");
	}

	private static UnknownLimiterPropertyException unknownVariable(String variable, String value) {
		UnknownLimiterPropertyException ex = catchThrowableOfType(UnknownLimiterPropertyException.class,
				() -> UnknownLimiterProperties.check(withVariables(Map.of(variable, value))));
		assertThat(ex).as("rejected").isNotNull();
		assertThat(ex.getVariable()).isEqualTo(variable);
		return ex;
	}

	/**
	 * An environment whose variables are these only, read as Spring Boot reads the
	 * process's.
	 */
	private static StandardEnvironment withVariables(Map<String, Object> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		systemProperties(environment, Map.of());
		return environment;
	}

	private static void systemProperties(StandardEnvironment environment, Map<String, Object> properties) {
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
					new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, properties));
	}

	private static InvalidLimiterConfigurationException unknown(String key, String value) {
		InvalidLimiterConfigurationException ex = catchThrowableOfType(InvalidLimiterConfigurationException.class,
				() -> UnknownLimiterProperties.check(environment(Map.of(key, value))));
		assertThat(ex).as("rejected").isNotNull();
		assertThat(ex.getProperty()).isEqualTo(key);
		return ex;
	}

	private static StandardEnvironment environment(Map<String, Object> values) {
		StandardEnvironment environment = withVariables(Map.of());
		environment.getPropertySources().addFirst(new MapPropertySource("application", values));
		return environment;
	}

}
