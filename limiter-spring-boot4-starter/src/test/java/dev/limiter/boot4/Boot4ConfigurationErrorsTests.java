package dev.limiter.boot4;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared configuration checks on Boot 4's binder (compiled against Boot 3.5): an
 * unknown key (in a file, an environment variable or a system property) is found and the
 * nearest property suggested, and a rejected value names its own property.
 */
class Boot4ConfigurationErrorsTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class));

	@Test
	void startupWhenAKeyIsATypoOnBoot4ShouldFailSuggestingTheNearProperty() {
		runner.withPropertyValues("limiter.budgets.standard.window.minute.limit=1").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasMessageContaining("'limiter.budgets.standard.window.minute.limit'")
				.hasMessageContaining("did you mean 'limiter.budgets.standard.windows'?");
		});
	}

	@Test
	void startupWhenARouteKeyIsATypoOnBoot4ShouldFailSuggestingTheNearProperty() {
		runner.withPropertyValues("limiter.routes[0].pattern=/x", "limiter.routes[0].expensiv=true").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("did you mean 'limiter.routes[0].expensive'?");
		});
	}

	@Test
	void startupWhenTheTestInfrastructureSetsSystemPropertiesOnBoot4ShouldNotCheckThem() {
		runner.withSystemProperties("limiter.test.unknown=1").run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void startupWhenAnEnvironmentVariableIsATypoOnBoot4ShouldFailNamingItAndTheNearProperty() {
		withVariables(Map.of("LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT", "1")).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasMessageContaining("environment variable 'LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT'")
				.hasMessageEndingWith("did you mean 'limiter.budgets.standard.windows'?");
		});
	}

	@Test
	void startupWhenEnvironmentVariablesBindOnBoot4ShouldSucceed() {
		Map<String, Object> variables = new LinkedHashMap<>();
		variables.put("LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_LIMIT", "5");
		variables.put("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_LIMIT", "7");
		variables.put("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_DURATION", "1m");
		variables.put("LIMITER_AUTH_GUARD_THRESHOLD", "5");
		variables.put("LIMITER_ROUTES_0_PATTERN", "/x");
		variables.put("LIMITER_ROUTES_0_BUDGET", "gold");
		withVariables(variables).run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void startupWhenASystemPropertyIsATypoOnBoot4ShouldFailNamingIt() {
		runner.withSystemProperties("limiter.heders=both").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("system property 'limiter.heders'")
				.hasMessageEndingWith("did you mean 'limiter.headers'?");
		});
	}

	private WebApplicationContextRunner withVariables(Map<String, Object> variables) {
		return runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)));
	}

	@Test
	void startupWhenAConcurrencyLeaseIsZeroOnBoot4ShouldNameTheLease() {
		runner.withPropertyValues("limiter.budgets.standard.concurrency.lease=0s").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasFieldOrPropertyWithValue("property", "limiter.budgets.standard.concurrency.lease");
		});
	}

}
