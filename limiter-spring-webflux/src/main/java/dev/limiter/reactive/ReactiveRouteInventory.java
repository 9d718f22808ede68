package dev.limiter.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryBuilder;
import dev.limiter.spring.RateLimitRules;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The route inventory of a WebFlux application: every handler method of WebFlux's
 * annotated-controller mappings, resolved by the {@code limiter.routes} rules in force,
 * then the annotations, then the default budget ({@link RouteInventoryBuilder}, the
 * servlet inventory's own precedence), and the paths the limiter answers itself. Built at
 * the first read (the mappings are made after the filters) and again after a refresh
 * replaced the rules. {@code RouterFunction} routes are not listed yet: they are counted
 * against the default budget unless a rule names another.
 */
public final class ReactiveRouteInventory implements Supplier<RouteInventory> {

	private static final Log logger = LogFactory.getLog(ReactiveRouteInventory.class);

	private final Supplier<RateLimitRules> rules;

	private final HandlerPolicies policies;

	private final Supplier<List<HandlerMapping>> mappings;

	private final List<RouteInventory.Entry> ownEndpoints;

	private volatile Built built;

	/**
	 * @param mappings WebFlux's handler mappings, asked for at the first read
	 * @param ownEndpoints the paths the limiter answers itself (the quota endpoint)
	 */
	public ReactiveRouteInventory(Supplier<RateLimitRules> rules, HandlerPolicies policies,
			Supplier<List<HandlerMapping>> mappings, List<RouteInventory.Entry> ownEndpoints) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.policies = Objects.requireNonNull(policies, "policies");
		this.mappings = Objects.requireNonNull(mappings, "mappings");
		this.ownEndpoints = List.copyOf(ownEndpoints);
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
		}
		ownEndpoints.forEach(builder::addOwnEndpoint);
		for (String problem : problems) {
			logger.warn("Route inventory: " + problem);
		}
		return builder.build();
	}

	private record Built(RateLimitRules rules, RouteInventory inventory) {
	}

}
