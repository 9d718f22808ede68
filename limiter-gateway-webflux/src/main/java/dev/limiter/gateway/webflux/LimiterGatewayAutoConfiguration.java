package dev.limiter.gateway.webflux;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.decision.RateLimitObservers;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.reactive.ReactiveCountedFurtherOn;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.reactive.ReactiveRouteInventory;
import dev.limiter.reactive.autoconfigure.LimiterReactiveAutoConfiguration;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.RateLimitObserver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code Limiter} route filter of Spring Cloud Gateway's WebFlux server, beside the
 * application-wide {@link ReactiveRateLimitFilter} it decides through; the latter leaves
 * every request a route carrying {@code Limiter} counts to that route
 * ({@link GatewayLimitedRoutes}), so that each request is counted once.
 */
@AutoConfiguration(after = LimiterReactiveAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(GatewayFilterFactory.class)
@ConditionalOnLimiterEnabled
@ConditionalOnBean(ReactiveRateLimitFilter.class)
public class LimiterGatewayAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public LimiterGatewayFilterFactory limiterGatewayFilterFactory(ReactiveRateLimitFilter limiter,
			CurrentRateLimitRules rules, LimiterSettings settings, ObjectProvider<RateLimitObserver> observers) {
		UsageReportHeader reportHeader = settings.gatewayReportHeader()
			.map((name) -> new UsageReportHeader(name,
					new RateLimitObservers(observers.orderedStream().toList(), LimiterGatewayFilter.class)))
			.orElse(null);
		return new LimiterGatewayFilterFactory(limiter, rules, reportHeader);
	}

	/**
	 * Asked by the application-wide filter; the gateway's (primary, caching) route
	 * locator and its handler mapping are looked up at the first request, since they are
	 * made from the filter factories.
	 */
	@Bean
	public ReactiveCountedFurtherOn limiterGatewayLimitedRoutes(ObjectProvider<RouteLocator> routes,
			ObjectProvider<RoutePredicateHandlerMapping> mapping) {
		return new GatewayLimitedRoutes(routes::getIfAvailable, mapping::getIfUnique);
	}

	/**
	 * The {@code Weight} groups drawn before the limiter asks for a request's route, so
	 * that a weighted route's request is counted once, on the route that forwards it.
	 */
	@Bean
	public static WeightsDrawnBeforeTheLimiter limiterWeightsDrawnBeforeTheLimiter(
			ObjectProvider<ReactiveRateLimitFilter> limiter) {
		return new WeightsDrawnBeforeTheLimiter(limiter);
	}

	/** The gateway's routes in the limiter's route inventory. */
	@Bean
	public GatewayInventoryRoutes limiterGatewayInventoryRoutes(ObjectProvider<RouteLocator> routes,
			ObjectProvider<ReactiveRouteInventory> inventory) {
		return new GatewayInventoryRoutes(routes::getIfAvailable, inventory::getIfUnique);
	}

}
