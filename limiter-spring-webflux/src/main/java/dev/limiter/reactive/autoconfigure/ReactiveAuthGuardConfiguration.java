package dev.limiter.reactive.autoconfigure;

import java.time.Clock;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.guard.AuthGuardConfiguration;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.guard.GuardEvents;
import dev.limiter.guard.GuardOutcomes;
import dev.limiter.reactive.ReactiveAuthGuardFilter;
import dev.limiter.reactive.ReactiveAuthenticationOutcomeFilter;
import dev.limiter.reactive.ReactiveLimiterCors;
import dev.limiter.reactive.ReactiveRateLimitFilter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The authentication-failure guard ({@code limiter.auth-guard.*}) of a reactive
 * application, on by default wherever reactive Spring Security runs:
 * {@link ReactiveAuthGuardFilter} just before Spring Security's
 * {@code WebFilterChainProxy}, {@link ReactiveAuthenticationOutcomeFilter} just after it;
 * the guard itself is the servlet application's ({@link AuthGuardConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.security.core.context.ReactiveSecurityContextHolder")
@ConditionalOnProperty(prefix = "limiter.auth-guard", name = "enabled", havingValue = "true", matchIfMissing = true)
@Import({ AuthGuardConfiguration.class, ReactiveCorsConfiguration.class })
class ReactiveAuthGuardConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReactiveAuthGuardFilter reactiveAuthGuardFilter(AuthGuard guard,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock, ObjectProvider<GuardEvents> events,
			ReactiveLimiterCors cors) {
		return new ReactiveAuthGuardFilter(new GuardOutcomes(guard, clock,
				events.getIfAvailable(() -> GuardEvents.NONE), ReactiveAuthGuardFilter.class), cors);
	}

	@Bean
	@ConditionalOnMissingBean
	ReactiveAuthenticationOutcomeFilter reactiveAuthenticationOutcomeFilter(
			ObjectProvider<ReactiveRateLimitFilter> limiterFilter) {
		return new ReactiveAuthenticationOutcomeFilter(limiterFilter.getIfAvailable() != null);
	}

}
