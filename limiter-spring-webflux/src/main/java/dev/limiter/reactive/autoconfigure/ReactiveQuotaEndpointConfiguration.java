package dev.limiter.reactive.autoconfigure;

import java.time.Clock;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterProperties;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.QuotaEndpointWiring;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.reactive.ReactiveKeyResolver;
import dev.limiter.reactive.ReactiveQuotaEndpointFilter;
import dev.limiter.reactive.ReactiveRouteInventory;
import dev.limiter.spring.CurrentRateLimitRules;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The quota endpoint ({@code limiter.quota-endpoint.path}) on a reactive application: the
 * servlet application's settings, checks and report ({@link QuotaEndpointWiring}),
 * answered by {@link ReactiveQuotaEndpointFilter} just before the rate-limit filter, over
 * the budgets the routes of the {@link ReactiveRouteInventory} use. The report's reads of
 * the store run on Reactor's bounded elastic scheduler, never on an event loop.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(QuotaEndpointWiring.PATH_PROPERTY)
class ReactiveQuotaEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReactiveQuotaEndpointFilter limiterReactiveQuotaEndpointFilter(LimiterProperties properties,
			LimiterSettings settings, CurrentRateLimitRules rules, RateLimitStore store,
			ReactiveKeyResolver keyResolver, @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			ReactiveRouteInventory inventory) {
		QuotaEndpointWiring quota = QuotaEndpointWiring.of(properties);
		return new ReactiveQuotaEndpointFilter(quota.path(), quota.report(rules, store, inventory, clock), keyResolver,
				store, new DecisionResponses(settings.headers().xRateLimit(), settings.headers().ietf()), clock,
				quota.perMinute(), Schedulers.boundedElastic());
	}

}
