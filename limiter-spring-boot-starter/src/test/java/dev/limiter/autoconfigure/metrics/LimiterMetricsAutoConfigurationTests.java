package dev.limiter.autoconfigure.metrics;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.actuate.LimiterEndpointAutoConfiguration;
import dev.limiter.metrics.MicrometerOperatorMeters;
import dev.limiter.metrics.MicrometerRateLimitObserver;
import dev.limiter.servlet.RateLimitFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterMetricsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class,
				LimiterMetricsAutoConfiguration.class, LimiterEndpointAutoConfiguration.class));

	@Test
	void metersWhenAMeterRegistryExistsShouldBeRegistered() {
		runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
			assertThat(context).hasSingleBean(MicrometerRateLimitObserver.class);
			assertThat(context.getBean(MeterRegistry.class).find("limiter.store.latency").timer()).isNotNull();
		});
	}

	@Test
	void nearLimitThresholdWhenOutOfRangeShouldFailNamingTheProperty() {
		runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("limiter.metrics.near-limit-threshold=1.5")
			.run(context -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("limiter.metrics.near-limit-threshold"));
	}

	@Test
	void operatorMetersWhenAMeterRegistryExistsShouldBeThereFromTheStart() {
		runner.withBean(MeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
			.run(context -> {
				assertThat(context).hasSingleBean(MicrometerOperatorMeters.class);
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains("limiter_fail_open_total{reason=\"fallback\"")
					.contains("limiter_fail_open_total{reason=\"uncounted\"")
					.contains("limiter_store_latency_seconds_bucket{");
			});
	}

	@Test
	void metersWhenNoMeterRegistryShouldBackOff() {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(MicrometerRateLimitObserver.class);
			assertThat(context).hasSingleBean(RateLimitFilter.class);
		});
	}

	@Test
	void starterWhenMicrometerIsNotOnTheClasspathShouldStart() {
		// A registry object exists, but its classes cannot be loaded by the application:
		// the meters must back off
		// on the class condition, not merely for want of a registry bean.
		runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.withBean("meterRegistry", Object.class, SimpleMeterRegistry::new)
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(RateLimitFilter.class);
				assertThat(context).doesNotHaveBean(MicrometerRateLimitObserver.class);
			});
	}

}
