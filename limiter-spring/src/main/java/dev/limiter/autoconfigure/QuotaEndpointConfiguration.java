package dev.limiter.autoconfigure;

import java.time.Clock;
import java.util.List;

import dev.limiter.core.RateLimitStore;
import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.servlet.QuotaEndpointFilter;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitResponseWriter;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The quota endpoint ({@code limiter.quota-endpoint.path}): its line in the route
 * inventory (its own budget, source {@code built-in}) and its filter, registered after
 * Spring Security's chain (the caller is known) and just before the rate-limit filter
 * (reading the quota is not counted against it).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(QuotaEndpointConfiguration.PATH_PROPERTY)
class QuotaEndpointConfiguration {

	static final String PATH_PROPERTY = QuotaEndpointWiring.PATH_PROPERTY;

	static final String REGISTRATION_BEAN_NAME = "quotaEndpointFilterRegistration";

	@Bean
	@ConditionalOnMissingBean
	QuotaEndpointFilter limiterQuotaEndpointFilter(LimiterProperties properties, CurrentRateLimitRules rules,
			RateLimitStore store, ObjectProvider<RouteInventoryCheck> inventory, KeyResolver keyResolver,
			RateLimitResponseWriter responseWriter, @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock) {
		QuotaEndpointWiring quota = QuotaEndpointWiring.of(properties);
		inventory.ifAvailable((check) -> check
			.ownEndpoints(List.of(quota.inventoryEntry(QuotaEndpointFilter.class.getSimpleName()))));
		QuotaReport report = quota.report(rules, store, () -> {
			RouteInventoryCheck check = inventory.getIfAvailable();
			return (check != null) ? check.inventory() : null;
		}, clock);
		return new QuotaEndpointFilter(quota.path(), report, keyResolver, store, responseWriter, clock,
				quota.perMinute());
	}

	@Bean(name = REGISTRATION_BEAN_NAME)
	@ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
	FilterRegistrationBean<QuotaEndpointFilter> quotaEndpointFilterRegistration(QuotaEndpointFilter filter,
			Environment environment) {
		return FilterRegistrations.of(filter, "quotaEndpointFilter",
				FilterRegistrations.securityFilterOrder(environment)
						+ LimiterServletAutoConfiguration.ORDER_AFTER_SECURITY - 1,
				DispatcherType.REQUEST);
	}

}
