package dev.limiter.boot3.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Boot 3 health component loads from {@code AutoConfiguration.imports}, and an
 * application that excluded it under its former name
 * ({@code dev.limiter.autoconfigure.actuate...}) still excludes it
 * ({@code AutoConfiguration.replacements}).
 */
class LimiterHealthContributorAutoConfigurationTests {

	@Test
	void autoConfigurationWhenImportedShouldAddTheLimitersHealthIndicator() {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(context.getBean("limiterHealthIndicator")).isInstanceOf(LimiterHealthIndicator.class);
		}
	}

	@Test
	void autoConfigurationWhenExcludedUnderItsFormerNameShouldStayOut() {
		try (ConfigurableApplicationContext context = run(
				"spring.autoconfigure.exclude=dev.limiter.autoconfigure.actuate.LimiterHealthContributorAutoConfiguration")) {
			assertThat(context.containsBean("limiterHealthIndicator")).isFalse();
			assertThat(context.getBeanNamesForType(LimiterHealthContributorAutoConfiguration.class)).isEmpty();
		}
	}

	private static ConfigurableApplicationContext run(String... properties) {
		return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(properties).run();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
