package dev.limiter.routes;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.limiter.spring.RoutePolicy;

import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

/**
 * Spring MVC's routes for a {@link RouteInventoryBuilder}: every handler method of every
 * {@link RequestMappingInfoHandlerMapping} (controllers, and actuator endpoints served by
 * the application's own dispatcher), every functional route whose predicates can be read,
 * and the resource handlers.
 */
final class MvcRoutes {

	private static final String CATCH_ALL = "/**";

	private MvcRoutes() {
	}

	/**
	 * Adds every handler method of a mapping; annotation problems are collected into
	 * {@code problems}.
	 */
	static void addHandlerMethods(RouteInventoryBuilder builder, RequestMappingInfoHandlerMapping mapping,
			List<String> problems) {
		for (Map.Entry<RequestMappingInfo, HandlerMethod> handler : mapping.getHandlerMethods().entrySet()) {
			RequestMappingInfo info = handler.getKey();
			List<String> methods = info.getMethodsCondition()
				.getMethods()
				.stream()
				.map(RequestMethod::name)
				.sorted()
				.toList();
			builder.addHandlerMethod(methods, info.getPatternValues(), handler.getValue(), problems);
		}
	}

	/**
	 * Adds the patterns of a URL mapping's resource handlers (static locations, webjars,
	 * Swagger UI's files) with the built-in policy of static resources. The catch-all
	 * {@code /**} keeps alive only the rules that cover it: it overlaps every rule.
	 */
	static void addResourceHandlers(RouteInventoryBuilder builder, HandlerPolicies policies,
			AbstractUrlHandlerMapping mapping) {
		for (Map.Entry<String, Object> handler : mapping.getHandlerMap().entrySet()) {
			if (handler.getValue() instanceof ResourceHttpRequestHandler resources) {
				List<String> methods = Arrays.stream(resources.getSupportedMethods()).sorted().toList();
				builder.addRoute(methods, handler.getKey(), ClassUtils.getShortName(ResourceHttpRequestHandler.class),
						policies.staticResources().resourcePolicy(), RouteSource.BUILT_IN,
						!CATCH_ALL.equals(handler.getKey()));
			}
		}
	}

	/**
	 * Adds the functional routes of a mapping whose request predicates name a path; a
	 * gateway route ({@link NamedRoute}) by its id, on the budget of its own filter
	 * whatever the rules say (an unknown budget is collected into {@code problems}).
	 */
	static void addRouterFunctions(RouteInventoryBuilder builder, RouterFunctionMapping mapping,
			List<String> problems) {
		RouterFunction<?> routerFunction = mapping.getRouterFunction();
		if (routerFunction == null) {
			return;
		}
		routerFunction.accept(new FunctionalRoutes((methods, pattern, handler, named) -> {
			if (named == null || named.budget() == null) {
				builder.addRoute(methods, pattern, handler,
						(named != null) ? named.policy().withPattern(null) : RoutePolicy.DEFAULT, RouteSource.DEFAULT,
						true);
				return;
			}
			String unknown = builder.unknownBudget(named.label(), named.budget());
			if (unknown != null) {
				problems.add(unknown);
			}
			else {
				builder.addRouteDecidedByItsFilter(methods, pattern, handler, named.policy().withPattern(null),
						RouteSource.ROUTE_FILTER);
			}
		}));
	}

}
