package dev.limiter.routes;

import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;

/**
 * The default {@link RouteResolver} of a Spring MVC application. Precedence: the first
 * matching {@code limiter.routes} rule, then
 * {@code @RateLimited}/{@code @RateLimitExempt} on the handler method Spring MVC will
 * call, then on its class, then the built-in policy of static resources and the API
 * documentation ({@link StaticResources}), then the default budget. A handler that names
 * its route ({@link NamedRoute}: a gateway route) is counted under that name: on the
 * budget of its own filter when it has one, whatever the rules say (the route's explicit
 * {@code Limiter=<budget>} is the more specific statement), else on the rule's or the
 * default budget. The pattern of the policy is the one Spring MVC matched
 * ({@code /links/{id}}) or the route's name, else the rule's, else none (a request no
 * handler serves).
 *
 * <p>
 * Per request: one parse of the path (shared by the rules and the handler mappings when
 * it reads the same to both), the rules, then (unless a rule matched, no budget is
 * {@code scope: route} and no {@link NamedRoute.Source} bean exists) one handler lookup
 * and one cached map read; annotations are read once per handler method.
 */
public class HandlerRouteResolver implements RouteResolver {

	private static final Log logger = LogFactory.getLog(HandlerRouteResolver.class);

	private final PropertiesRouteResolver rules;

	private final HandlerPolicies policies;

	private final HandlerLookup lookup;

	/** Whether a request a rule matched still has its handler looked up. */
	private final boolean handlerAlwaysNeeded;

	/**
	 * @param patternAlwaysNeeded whether a request that a rule matched still needs Spring
	 * MVC's pattern (some budget is {@code scope: route})
	 */
	public HandlerRouteResolver(PropertiesRouteResolver rules, HandlerPolicies policies,
			ListableBeanFactory beanFactory, boolean patternAlwaysNeeded) {
		this.rules = rules;
		this.policies = policies;
		this.lookup = new HandlerLookup(beanFactory);
		this.handlerAlwaysNeeded = patternAlwaysNeeded
				|| beanFactory.getBeanNamesForType(NamedRoute.Source.class, true, false).length > 0;
	}

	@Override
	public RoutePolicy resolve(HttpServletRequest request) {
		HandlerLookup.Prepared prepared = lookup.prepare(request);
		RoutePolicy rule = rules.match(request, prepared.path());
		if (rule != null && !handlerAlwaysNeeded) {
			return rule;
		}
		HandlerLookup.Match match = lookup.find(request, prepared);
		if (match != null && match.handler() instanceof NamedRoute named) {
			return (rule != null && named.budget() == null) ? rule.withPattern(named.routeName()) : named.policy();
		}
		if (rule != null) {
			return match != null && match.pattern() != null ? rule.withPattern(match.pattern()) : rule;
		}
		if (match == null) {
			return RoutePolicy.DEFAULT;
		}
		if (match.handler() instanceof ResourceHttpRequestHandler resources) {
			return policies.staticResources()
				.policyFor(resources, request, match.pathWithinMapping())
				.withPattern(match.pattern());
		}
		if (match.handler() instanceof HandlerMethod handler) {
			try {
				return policies.policyFor(handler).withPattern(match.pattern());
			}
			catch (RouteInventoryException ex) {
				// Only a handler registered after start-up can get here; the start-up
				// inventory checks the rest.
				logger.warn("Handler registered after start-up counted against the default budget: " + ex.getMessage());
			}
		}
		return RoutePolicy.DEFAULT.withPattern(match.pattern());
	}

}
