package dev.limiter.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryBuilder;
import dev.limiter.routes.RouteSource;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The route inventory of a WebFlux application: every handler method of WebFlux's
 * annotated-controller mappings and every {@code RouterFunction} route whose predicates
 * name a path (nested prefixes joined; a route without a path, or with an or/negation,
 * stands for everything under its prefix), resolved by the {@code limiter.routes} rules
 * in force, then the annotations, then the default budget ({@link RouteInventoryBuilder},
 * the servlet inventory's own precedence), the routes of other mappings
 * ({@link ReactiveInventoryRoutes}: a gateway's), and the paths the limiter answers
 * itself. Built at the first read (the mappings are made after the filters) and again
 * after a refresh replaced the rules.
 */
public final class ReactiveRouteInventory implements Supplier<RouteInventory>, CurrentRouteInventory {

	private static final Log logger = LogFactory.getLog(ReactiveRouteInventory.class);

	private final Supplier<RateLimitRules> rules;

	private final HandlerPolicies policies;

	private final Supplier<List<HandlerMapping>> mappings;

	private final List<RouteInventory.Entry> ownEndpoints;

	private final Supplier<List<ReactiveInventoryRoutes>> otherRoutes;

	private volatile Built built;

	/**
	 * @param mappings WebFlux's handler mappings, asked for at the first read
	 * @param ownEndpoints the paths the limiter answers itself (the quota endpoint)
	 */
	public ReactiveRouteInventory(Supplier<RateLimitRules> rules, HandlerPolicies policies,
			Supplier<List<HandlerMapping>> mappings, List<RouteInventory.Entry> ownEndpoints) {
		this(rules, policies, mappings, ownEndpoints, List::of);
	}

	/**
	 * @param mappings WebFlux's handler mappings, asked for at the first read
	 * @param ownEndpoints the paths the limiter answers itself (the quota endpoint)
	 * @param otherRoutes the routes of mappings this inventory cannot walk (a gateway's),
	 * asked for at each build
	 */
	public ReactiveRouteInventory(Supplier<RateLimitRules> rules, HandlerPolicies policies,
			Supplier<List<HandlerMapping>> mappings, List<RouteInventory.Entry> ownEndpoints,
			Supplier<List<ReactiveInventoryRoutes>> otherRoutes) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.policies = Objects.requireNonNull(policies, "policies");
		this.mappings = Objects.requireNonNull(mappings, "mappings");
		this.ownEndpoints = List.copyOf(ownEndpoints);
		this.otherRoutes = Objects.requireNonNull(otherRoutes, "otherRoutes");
	}

	/** The inventory is built again at the next read: some routes changed. */
	public void routesChanged() {
		built = null;
	}

	/** The inventory under the rules in force. */
	@Override
	public RouteInventory get() {
		RateLimitRules current = rules.get();
		Built last = built;
		if (last == null || last.rules() != current) {
			last = new Built(current, build(current));
			built = last;
		}
		return last.inventory();
	}

	@Override
	public RouteInventory inventory() {
		return get();
	}

	private RouteInventory build(RateLimitRules current) {
		List<PropertiesRouteResolver.RouteRule> routeRules = (current
			.routes() instanceof PropertiesRouteResolver properties) ? properties.rules() : List.of();
		RouteInventoryBuilder builder = new RouteInventoryBuilder(routeRules, policies, current.budgets());
		List<String> problems = new ArrayList<>();
		for (HandlerMapping mapping : mappings.get()) {
			if (mapping instanceof RequestMappingInfoHandlerMapping handlers) {
				for (Map.Entry<RequestMappingInfo, HandlerMethod> handler : handlers.getHandlerMethods().entrySet()) {
					RequestMappingInfo info = handler.getKey();
					List<String> methods = info.getMethodsCondition()
						.getMethods()
						.stream()
						.map(RequestMethod::name)
						.sorted()
						.toList();
					List<String> patterns = info.getPatternsCondition()
						.getPatterns()
						.stream()
						.map(PathPattern::getPatternString)
						.toList();
					builder.addHandlerMethod(methods, patterns, handler.getValue(), problems);
				}
			}
			else if (mapping instanceof RouterFunctionMapping functional) {
				addRouterFunctions(builder, functional);
			}
		}
		otherRoutes.get().forEach((routes) -> routes.addTo(builder));
		ownEndpoints.forEach(builder::addOwnEndpoint);
		for (String problem : problems) {
			logger.warn("Route inventory: " + problem);
		}
		return builder.build();
	}

	private static void addRouterFunctions(RouteInventoryBuilder builder, RouterFunctionMapping mapping) {
		RouterFunction<?> routerFunction = mapping.getRouterFunction();
		if (routerFunction != null) {
			routerFunction.accept(new ReactiveFunctionalRoutes((methods, pattern, handler) -> builder.addRoute(methods,
					pattern, handler, RoutePolicy.DEFAULT, RouteSource.DEFAULT, true)));
		}
	}

	private record Built(RateLimitRules rules, RouteInventory inventory) {
	}

}
