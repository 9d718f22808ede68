package dev.limiter.autoconfigure.guard;

import java.time.Clock;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.FilterRegistrations;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterCorsConfiguration;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.guard.AuthGuardFilter;
import dev.limiter.guard.AuthenticationOutcomeFilter;
import dev.limiter.guard.AuthenticationOutcomeListener;
import dev.limiter.guard.GuardEvents;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.web.CorsHeaders;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The authentication-failure guard ({@code limiter.auth-guard.*}), on by default wherever
 * Spring Security runs in a servlet application: {@link AuthGuardFilter} just before
 * Spring Security's filter chain, {@link AuthenticationOutcomeFilter} just after it, and
 * a listener for authentication events. Counts in the limiter's store, so a block holds
 * across instances on Redis.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class,
		afterName = { "org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration",
				"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SecurityContextHolder.class)
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter.auth-guard", name = "enabled", havingValue = "true", matchIfMissing = true)
@Import({ LimiterSettingsConfiguration.class, LimiterCorsConfiguration.class, AuthGuardConfiguration.class })
public class LimiterAuthGuardAutoConfiguration {

	/**
	 * Name of the guard filter's registration; define a bean with this name to register
	 * it yourself.
	 */
	public static final String REGISTRATION_BEAN_NAME = "authGuardFilterRegistration";

	/** Name of the outcome filter's registration. */
	public static final String OUTCOME_REGISTRATION_BEAN_NAME = "authenticationOutcomeFilterRegistration";

	@Bean
	@ConditionalOnMissingBean
	public AuthGuardFilter authGuardFilter(AuthGuard guard,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock, ObjectProvider<GuardEvents> events,
			CorsHeaders cors) {
		return new AuthGuardFilter(guard, clock, events.getIfAvailable(() -> GuardEvents.NONE), cors);
	}

	@Bean(name = REGISTRATION_BEAN_NAME)
	@ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
	public FilterRegistrationBean<AuthGuardFilter> authGuardFilterRegistration(AuthGuardFilter filter,
			Environment environment) {
		return FilterRegistrations.of(filter, "authGuardFilter",
				FilterRegistrations.securityFilterOrder(environment) - 1, DispatcherType.REQUEST);
	}

	@Bean
	@ConditionalOnMissingBean
	public AuthenticationOutcomeFilter authenticationOutcomeFilter(ObjectProvider<RateLimitFilter> limiterFilter) {
		return new AuthenticationOutcomeFilter(limiterFilter.getIfAvailable() != null);
	}

	@Bean(name = OUTCOME_REGISTRATION_BEAN_NAME)
	@ConditionalOnMissingBean(name = OUTCOME_REGISTRATION_BEAN_NAME)
	public FilterRegistrationBean<AuthenticationOutcomeFilter> authenticationOutcomeFilterRegistration(
			AuthenticationOutcomeFilter filter, Environment environment) {
		return FilterRegistrations.of(filter, "authenticationOutcomeFilter",
				FilterRegistrations.securityFilterOrder(environment) + 1, DispatcherType.REQUEST);
	}

	@Bean
	@ConditionalOnMissingBean
	public AuthenticationOutcomeListener authenticationOutcomeListener() {
		return new AuthenticationOutcomeListener();
	}

}
