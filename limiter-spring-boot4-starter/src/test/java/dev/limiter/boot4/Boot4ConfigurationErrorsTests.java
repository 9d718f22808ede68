package dev.limiter.boot4;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared configuration checks on Boot 4's binder (compiled against Boot 3.5): an
 * unknown key is found and the nearest property suggested, and a rejected value names its
 * own property.
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
	void startupWhenAConcurrencyLeaseIsZeroOnBoot4ShouldNameTheLease() {
		runner.withPropertyValues("limiter.budgets.standard.concurrency.lease=0s").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasFieldOrPropertyWithValue("property", "limiter.budgets.standard.concurrency.lease");
		});
	}

}
