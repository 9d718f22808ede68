package dev.limiter.reactive;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.RouteInventoryException;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.server.PathContainer;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The default {@link ReactiveRouteResolver}, with the servlet default's precedence: the
 * first matching {@code limiter.routes} rule (of the rules in force, so a refresh
 * applies), then {@code @RateLimited}/{@code @RateLimitExempt} on the handler method
 * WebFlux will call, then on its class, then the default budget. The handler is found by
 * asking WebFlux's own {@link HandlerMapping}s in their order, as its dispatcher will
 * (annotated controllers, {@code RouterFunction} routes); the policy's pattern is the one
 * the mapping matched ({@code /links/{id}}), else the rule's, else none.
 */
public final class HandlerMappingRouteResolver implements ReactiveRouteResolver {

	private static final Log logger = LogFactory.getLog(HandlerMappingRouteResolver.class);

	private final Supplier<RateLimitRules> rules;

	private final HandlerPolicies policies;

	private final Supplier<List<HandlerMapping>> mappings;

	private final boolean patternAlwaysNeeded;

	/**
	 * @param mappings WebFlux's handler mappings in their order, asked for at the first
	 * request (they are made after the filter)
	 * @param patternAlwaysNeeded whether a request a rule matched still needs the
	 * handler's pattern (some budget is {@code scope: route})
	 */
	public HandlerMappingRouteResolver(Supplier<RateLimitRules> rules, HandlerPolicies policies,
			Supplier<List<HandlerMapping>> mappings, boolean patternAlwaysNeeded) {
		this.rules = Objects.requireNonNull(rules, "rules");
		this.policies = Objects.requireNonNull(policies, "policies");
		this.mappings = Objects.requireNonNull(mappings, "mappings");
		this.patternAlwaysNeeded = patternAlwaysNeeded;
	}

	@Override
	public Mono<RoutePolicy> resolve(ServerWebExchange exchange) {
		RoutePolicy rule = rule(exchange);
		if (rule != null && !patternAlwaysNeeded) {
			return Mono.just(rule);
		}
		return Flux.fromIterable(mappings.get())
			// a mapping that matched the path but not the method or media type answers
			// with an error the dispatcher reports itself; here it only means no handler
			.concatMap((mapping) -> mapping.getHandler(exchange).onErrorResume((ex) -> Mono.empty()))
			.next()
			.map((handler) -> policyOf(handler, exchange, rule))
			.defaultIfEmpty((rule != null) ? rule : RoutePolicy.DEFAULT);
	}

	private RoutePolicy rule(ServerWebExchange exchange) {
		if (!(rules.get().routes() instanceof PropertiesRouteResolver properties)) {
			return null;
		}
		PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
		return properties.matchPath(path, exchange.getRequest().getMethod().name());
	}

	private RoutePolicy policyOf(Object handler, ServerWebExchange exchange, RoutePolicy rule) {
		String pattern = (exchange
			.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE) instanceof PathPattern p)
					? p.getPatternString() : null;
		RoutePolicy policy = (rule != null) ? rule : annotated(handler);
		return (pattern != null) ? policy.withPattern(pattern) : policy;
	}

	private RoutePolicy annotated(Object handler) {
		if (handler instanceof HandlerMethod method) {
			try {
				return policies.policyFor(method);
			}
			catch (RouteInventoryException ex) {
				logger.warn("Handler counted against the default budget: " + ex.getMessage());
			}
		}
		return RoutePolicy.DEFAULT;
	}

}
