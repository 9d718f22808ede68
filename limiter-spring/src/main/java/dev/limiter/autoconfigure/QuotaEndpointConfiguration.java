package dev.limiter.autoconfigure;

import java.time.Clock;
import java.util.List;

import dev.limiter.core.RateLimitStore;
import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.routes.RouteSource;
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

	static final String PATH_PROPERTY = "limiter.quota-endpoint.path";

	static final String REGISTRATION_BEAN_NAME = "quotaEndpointFilterRegistration";

	@Bean
	@ConditionalOnMissingBean
	QuotaEndpointFilter limiterQuotaEndpointFilter(LimiterProperties properties, CurrentRateLimitRules rules,
			RateLimitStore store, ObjectProvider<RouteInventoryCheck> inventory, KeyResolver keyResolver,
			RateLimitResponseWriter responseWriter, @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock) {
		QuotaEndpointProperties quota = properties.getQuotaEndpoint();
		String path = quota.getPath().trim();
		if (!path.startsWith("/")) {
			throw new InvalidLimiterConfigurationException(PATH_PROPERTY, "must start with '/', was '" + path + "'");
		}
		if (quota.getLimit() < 1) {
			throw new InvalidLimiterConfigurationException("limiter.quota-endpoint.limit",
					"must be at least 1, was " + quota.getLimit());
		}
		inventory.ifAvailable((check) -> check.ownEndpoints(List.of(new RouteInventory.Entry(List.of("GET"), path,
				QuotaEndpointFilter.class.getSimpleName(), QuotaEndpointFilter.BUDGET_NAME, false, false,
				"a caller's own quota (" + PATH_PROPERTY + ")", RouteSource.BUILT_IN))));
		QuotaReport report = new QuotaReport(rules, store, () -> {
			RouteInventoryCheck check = inventory.getIfAvailable();
			return (check != null) ? check.inventory() : null;
		}, clock);
		return new QuotaEndpointFilter(path, report, keyResolver, store, responseWriter, clock, quota.getLimit());
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
