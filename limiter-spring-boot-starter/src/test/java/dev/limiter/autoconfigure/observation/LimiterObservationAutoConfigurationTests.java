package dev.limiter.autoconfigure.observation;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.observation.ObservedDecisions;
import dev.limiter.servlet.RateLimitFilter;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterObservationAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class,
				LimiterObservationAutoConfiguration.class));

	@Test
	void observationsWhenTheApplicationHasARegistryShouldFollowEveryDecision() {
		runner.withBean(ObservationRegistry.class, TestObservationRegistry::create).run((context) -> {
			assertThat(context).hasSingleBean(ObservedDecisions.class);
			assertThat(ReflectionTestUtils.getField(context.getBean(RateLimitFilter.class), "instrumentation"))
				.isSameAs(context.getBean(ObservedDecisions.class));
		});
	}

	@Test
	void observationsWhenNoRegistryShouldBackOffAndTheFilterFollowNothing() {
		runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ObservedDecisions.class);
			assertThat(ReflectionTestUtils.getField(context.getBean(RateLimitFilter.class), "instrumentation"))
				.isNull();
		});
	}

	@Test
	void starterWhenMicrometerIsNotOnTheClasspathShouldStartWithoutObservations() {
		runner.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.withBean("observationRegistry", Object.class, Object::new)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(RateLimitFilter.class);
				assertThat(context).doesNotHaveBean(ObservedDecisions.class);
			});
	}

}
