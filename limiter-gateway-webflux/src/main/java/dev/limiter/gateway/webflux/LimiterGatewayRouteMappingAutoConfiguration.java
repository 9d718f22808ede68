package dev.limiter.gateway.webflux;

import java.lang.reflect.Method;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.config.GlobalCorsProperties;
import org.springframework.cloud.gateway.handler.FilteringWebHandler;
import org.springframework.cloud.gateway.handler.RoutePredicateHandlerMapping;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The gateway's handler mapping, made before the gateway's auto-configuration would make
 * its own, so that the limiter and the gateway share one route lookup per request
 * ({@link RouteMatchedOnceHandlerMapping}). An application that declares its own
 * {@link RoutePredicateHandlerMapping} keeps it; the limiter then looks the route up
 * itself ({@link GatewayLimitedRoutes}).
 */
@AutoConfiguration(beforeName = "org.springframework.cloud.gateway.config.GatewayAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(RoutePredicateHandlerMapping.class)
@ConditionalOnProperty(name = "spring.cloud.gateway.server.webflux.enabled", matchIfMissing = true)
@ConditionalOnLimiterEnabled
public class LimiterGatewayRouteMappingAutoConfiguration {

	/** Spring Framework 7's API versioning, which the gateway's own mapping applies. */
	private static final String API_VERSION_STRATEGY = "org.springframework.web.reactive.accept.ApiVersionStrategy";

	@Bean
	@ConditionalOnMissingBean
	public RoutePredicateHandlerMapping routePredicateHandlerMapping(FilteringWebHandler webHandler,
			RouteLocator routeLocator, GlobalCorsProperties globalCorsProperties, Environment environment,
			BeanFactory beanFactory) {
		RouteMatchedOnceHandlerMapping mapping = new RouteMatchedOnceHandlerMapping(webHandler, routeLocator,
				globalCorsProperties, environment);
		applyApiVersionStrategy(mapping, beanFactory);
		return mapping;
	}

	/**
	 * On Spring Framework 7 the gateway's mapping takes the application's
	 * {@code ApiVersionStrategy}; this jar is compiled against 6, which has none.
	 */
	private static void applyApiVersionStrategy(RoutePredicateHandlerMapping mapping, BeanFactory beanFactory) {
		ClassLoader loader = RoutePredicateHandlerMapping.class.getClassLoader();
		if (!ClassUtils.isPresent(API_VERSION_STRATEGY, loader)) {
			return;
		}
		Class<?> strategyType = ClassUtils.resolveClassName(API_VERSION_STRATEGY, loader);
		Method setter = ReflectionUtils.findMethod(mapping.getClass(), "setApiVersionStrategy", strategyType);
		if (setter != null) {
			beanFactory.getBeanProvider(strategyType)
				.ifAvailable((strategy) -> ReflectionUtils.invokeMethod(setter, mapping, strategy));
		}
	}

}
