package dev.limiter.gateway.webmvc.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.limiter.gateway.webmvc.GatewayRoutePolicy;
import dev.limiter.gateway.webmvc.LimitedRouterFunction;
import dev.limiter.gateway.webmvc.LimiterFilterFunctions;
import dev.limiter.gateway.webmvc.UsageReports;
import dev.limiter.routes.NamedRoute;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.gateway.server.mvc.common.MvcUtils;
import org.springframework.cloud.gateway.server.mvc.common.NameUtils;
import org.springframework.cloud.gateway.server.mvc.config.FilterProperties;
import org.springframework.cloud.gateway.server.mvc.config.GatewayMvcProperties;
import org.springframework.cloud.gateway.server.mvc.config.GatewayMvcPropertiesBeanDefinitionRegistrar.RouterFunctionHolder;
import org.springframework.cloud.gateway.server.mvc.config.RouteProperties;
import org.springframework.cloud.gateway.server.mvc.handler.GatewayDelegatingRouterFunction;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.util.StringUtils;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Names every gateway route for the limiter ({@link LimitedRouterFunction}) as the
 * gateway builds it: the routes of its configuration (each time the gateway builds them
 * again, on a refresh too), their budget read from their {@code Limiter} filter; and each
 * Java DSL route bean, its budget read from its attributes
 * ({@link LimiterFilterFunctions#BUDGET_ATTRIBUTE}).
 */
final class GatewayRoutes implements BeanPostProcessor, EnvironmentAware, BeanFactoryAware, NamedRoute.Source {

	/** The attribute under which the gateway keeps its configured routes by id. */
	private static final String CONFIGURED_ROUTES = "gatewayRouterFunctions";

	private static final String FILTER_NAME = "limiter";

	private Environment environment;

	private Supplier<UsageReports> reports = () -> null;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		ObjectProvider<UsageReports> provider = beanFactory.getBeanProvider(UsageReports.class);
		this.reports = provider::getIfAvailable;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof RouterFunctionHolder holder && !AopUtils.isAopProxy(holder)) {
			return configured(holder);
		}
		if (bean instanceof GatewayDelegatingRouterFunction<?> route) {
			RouteAttributes attributes = RouteAttributes.of(route);
			if (attributes.routeId() != null) {
				return new LimitedRouterFunction(attributes.policy(), (RouterFunction<ServerResponse>) route, reports);
			}
		}
		return bean;
	}

	private RouterFunctionHolder configured(RouterFunctionHolder holder) {
		RouterFunction<ServerResponse> all = holder.getRouterFunction();
		Map<String, RouterFunction<ServerResponse>> routes = RouteAttributes.of(all).configuredRoutes();
		if (routes == null || routes.isEmpty()
				|| routes.values().stream().anyMatch(LimitedRouterFunction.class::isInstance)) {
			return holder;
		}
		Map<String, GatewayRoutePolicy> policies = configuredPolicies();
		Map<String, RouterFunction<ServerResponse>> limited = new LinkedHashMap<>();
		routes.forEach((id, route) -> limited.put(id, new LimitedRouterFunction(
				policies.getOrDefault(id, new GatewayRoutePolicy(id, null, false)), route, reports)));
		RouterFunction<ServerResponse> combined = limited.values().stream().reduce(RouterFunction::and).orElseThrow();
		return new RouterFunctionHolder(combined.withAttribute(CONFIGURED_ROUTES, limited));
	}

	/**
	 * Each configured route's policy, read from the gateway's own properties as the
	 * gateway reads them to build its routes.
	 */
	private Map<String, GatewayRoutePolicy> configuredPolicies() {
		GatewayMvcProperties properties = Binder.get(environment)
			.bindOrCreate(GatewayMvcProperties.PREFIX, GatewayMvcProperties.class);
		Map<String, GatewayRoutePolicy> policies = new LinkedHashMap<>();
		for (RouteProperties route : properties.getRoutes()) {
			policies.put(route.getId(), policy(route.getId(), route));
		}
		properties.getRoutesMap().forEach((key, route) -> {
			String id = StringUtils.hasText(route.getId()) ? route.getId() : key;
			policies.put(id, policy(id, route));
		});
		return policies;
	}

	private static GatewayRoutePolicy policy(String id, RouteProperties route) {
		for (FilterProperties filter : route.getFilters()) {
			if (filter.getName() != null && FILTER_NAME.equals(filter.getName().toLowerCase(Locale.ROOT))) {
				Map<String, String> args = filter.getArgs();
				String budget = arg(args, "budget", 0);
				String expensive = arg(args, "expensive", 1);
				return new GatewayRoutePolicy(id, (budget != null) ? budget.trim() : null,
						expensive != null && Boolean.parseBoolean(expensive.trim()));
			}
		}
		return new GatewayRoutePolicy(id, null, false);
	}

	private static String arg(Map<String, String> args, String name, int position) {
		String named = args.get(name);
		return (named != null) ? named : args.get(NameUtils.generateName(position));
	}

	/** What a visitor of a router function is told of its attributes. */
	private static final class RouteAttributes implements RouterFunctions.Visitor {

		private String routeId;

		private String budget;

		private boolean expensive;

		private Map<String, RouterFunction<ServerResponse>> configuredRoutes;

		static RouteAttributes of(RouterFunction<?> route) {
			RouteAttributes attributes = new RouteAttributes();
			route.accept(attributes);
			return attributes;
		}

		String routeId() {
			return routeId;
		}

		GatewayRoutePolicy policy() {
			return new GatewayRoutePolicy(routeId, budget, expensive);
		}

		Map<String, RouterFunction<ServerResponse>> configuredRoutes() {
			return configuredRoutes;
		}

		@Override
		@SuppressWarnings("unchecked")
		public void attributes(Map<String, Object> attributes) {
			if (attributes.get(MvcUtils.GATEWAY_ROUTE_ID_ATTR) instanceof String id && routeId == null) {
				routeId = id;
			}
			if (attributes.get(LimiterFilterFunctions.BUDGET_ATTRIBUTE) instanceof String name) {
				budget = name;
			}
			if (attributes.get(LimiterFilterFunctions.EXPENSIVE_ATTRIBUTE) instanceof Boolean flag) {
				expensive = flag;
			}
			if (attributes.get(CONFIGURED_ROUTES) instanceof Map<?, ?> routes && configuredRoutes == null) {
				configuredRoutes = (Map<String, RouterFunction<ServerResponse>>) routes;
			}
		}

		@Override
		public void startNested(RequestPredicate predicate) {
		}

		@Override
		public void endNested(RequestPredicate predicate) {
		}

		@Override
		public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
		}

		@Override
		public void resources(Function<ServerRequest, Optional<Resource>> lookupFunction) {
		}

		@Override
		public void unknown(RouterFunction<?> routerFunction) {
		}

	}

}
