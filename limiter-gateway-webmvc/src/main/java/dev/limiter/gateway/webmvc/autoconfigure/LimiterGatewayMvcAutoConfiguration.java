package dev.limiter.gateway.webmvc.autoconfigure;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.decision.RateLimitObservers;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.gateway.webmvc.LimitedRouterFunction;
import dev.limiter.gateway.webmvc.LimiterFilterFunctions;
import dev.limiter.gateway.webmvc.UsageReports;
import dev.limiter.spring.RateLimitObserver;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.server.mvc.handler.GatewayDelegatingRouterFunction;
import org.springframework.context.annotation.Bean;

/**
 * The limiter on Spring Cloud Gateway's Server Web MVC: the {@code Limiter} route filter,
 * and every gateway route named for the limiter's servlet filter, which counts the
 * forwarded requests (docs/gateway.md).
 */
@AutoConfiguration(after = LimiterServletAutoConfiguration.class)
@ConditionalOnClass(GatewayDelegatingRouterFunction.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnLimiterEnabled
public class LimiterGatewayMvcAutoConfiguration {

	@Bean
	static GatewayRoutes limiterGatewayRoutes() {
		return new GatewayRoutes();
	}

	/**
	 * The {@code Weight} groups drawn before the limiter finds a request's route, so that
	 * a weighted route's request is counted on the route that forwards it.
	 */
	@Bean
	static WeightsDrawnBeforeTheLimiter limiterWeightsDrawnBeforeTheLimiter() {
		return new WeightsDrawnBeforeTheLimiter();
	}

	/**
	 * Settles what a downstream response reports in
	 * {@code limiter.gateway.report-header}, and strips the header.
	 */
	@Bean
	@ConditionalOnProperty(prefix = "limiter.gateway", name = "report-header")
	UsageReports limiterGatewayUsageReports(LimiterSettings settings, ObjectProvider<RateLimitObserver> observers) {
		String name = settings.gatewayReportHeader().orElseThrow();
		return new UsageReports(new UsageReportHeader(name,
				new RateLimitObservers(observers.orderedStream().toList(), LimitedRouterFunction.class)));
	}

	@Bean
	LimiterFilterFunctions.FilterSupplier limiterFilterFunctionsSupplier() {
		return new LimiterFilterFunctions.FilterSupplier();
	}

}
