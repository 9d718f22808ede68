package dev.limiter.autoconfigure.guard;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.web.LimiterRequestBodyAutoConfiguration;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.guard.AuthGuardFilter;
import dev.limiter.guard.AuthenticationOutcomeListener;
import dev.limiter.web.body.RequestBodyLimitFilter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterAuthGuardAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class,
				LimiterAuthGuardAutoConfiguration.class, LimiterRequestBodyAutoConfiguration.class));

	@Test
	void guardWhenSpringSecurityIsPresentShouldRunJustBeforeAndAfterTheSecurityChain() {
		runner.run(context -> {
			assertThat(context).hasSingleBean(AuthGuard.class).hasSingleBean(AuthenticationOutcomeListener.class);
			FilterRegistrationBean<?> before = context.getBean(LimiterAuthGuardAutoConfiguration.REGISTRATION_BEAN_NAME,
					FilterRegistrationBean.class);
			FilterRegistrationBean<?> after = context.getBean(
					LimiterAuthGuardAutoConfiguration.OUTCOME_REGISTRATION_BEAN_NAME, FilterRegistrationBean.class);
			assertThat(before.getOrder()).isEqualTo(SecurityProperties.DEFAULT_FILTER_ORDER - 1);
			assertThat(after.getOrder()).isEqualTo(SecurityProperties.DEFAULT_FILTER_ORDER + 1);
		});
	}

	@Test
	void guardWhenNotConfiguredShouldUseTheDefaultNumbers() {
		runner.run(context -> assertThat(context.getBean(AuthGuard.class).policy())
			.isEqualTo(dev.limiter.core.guard.AuthGuardPolicy.defaults()));
	}

	@Test
	void guardWhenConfiguredShouldTakeItsNumbersFromProperties() {
		runner
			.withPropertyValues("limiter.auth-guard.threshold=5", "limiter.auth-guard.window=1m",
					"limiter.auth-guard.block=2m", "limiter.auth-guard.max-pending=7")
			.run(context -> {
				var policy = context.getBean(AuthGuard.class).policy();
				assertThat(policy.threshold()).isEqualTo(5);
				assertThat(policy.window()).hasMinutes(1);
				assertThat(policy.block()).hasMinutes(2);
				assertThat(policy.maxPending()).isEqualTo(7);
			});
	}

	@Test
	void guardWhenDisabledShouldBackOff() {
		runner.withPropertyValues("limiter.auth-guard.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(AuthGuard.class)
				.doesNotHaveBean(AuthGuardFilter.class));
	}

	@Test
	void guardWhenTheLimiterIsDisabledShouldBackOff() {
		runner.withPropertyValues("limiter.enabled=false")
			.run(context -> assertThat(context).doesNotHaveBean(AuthGuard.class));
	}

	@Test
	void guardWhenSpringSecurityIsAbsentShouldBackOff() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.security"))
			.run(context -> assertThat(context).doesNotHaveBean(AuthGuard.class));
	}

	@Test
	void guardWhenThresholdIsZeroShouldFailStartUpNamingTheProperty() {
		runner.withPropertyValues("limiter.auth-guard.threshold=0")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasMessageContaining("limiter.auth-guard.threshold"));
	}

	@Test
	void guardWhenRememberAuthenticatedIsSetShouldTakeItFromProperties() {
		runner.withPropertyValues("limiter.auth-guard.remember-authenticated=0s")
			.run(context -> assertThat(context.getBean(AuthGuard.class).policy().rememberAuthenticated()).isZero());
	}

	@Test
	void guardWhenRememberAuthenticatedIsNegativeShouldFailStartUpNamingTheProperty() {
		runner.withPropertyValues("limiter.auth-guard.remember-authenticated=-1s")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("limiter.auth-guard.remember-authenticated"));
	}

	@Test
	void guardWhenBlockIsZeroShouldFailStartUpNamingTheProperty() {
		runner.withPropertyValues("limiter.auth-guard.block=0s")
			.run(context -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("limiter.auth-guard.block"));
	}

	@Test
	void bodyBoundWhenUnsetShouldBackOff() {
		runner.run(context -> assertThat(context).doesNotHaveBean(RequestBodyLimitFilter.class));
	}

	@Test
	void bodyBoundWhenSetShouldRegisterAheadOfEveryOtherFilter() {
		runner.withPropertyValues("limiter.max-request-body=1MB").run(context -> {
			assertThat(context.getBean(RequestBodyLimitFilter.class).maxBytes()).isEqualTo(1024 * 1024);
			assertThat(context
				.getBean(LimiterRequestBodyAutoConfiguration.REGISTRATION_BEAN_NAME, FilterRegistrationBean.class)
				.getOrder()).isLessThan(-9900);
		});
	}

	@Test
	void bodyBoundWhenNotASizeShouldFailStartUpNamingTheProperty() {
		runner.withPropertyValues("limiter.max-request-body=lots")
			.run(context -> assertThat(context).getFailure().hasStackTraceContaining("limiter.max-request-body"));
	}

}
