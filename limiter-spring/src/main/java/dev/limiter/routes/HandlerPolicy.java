package dev.limiter.routes;

import dev.limiter.spring.RoutePolicy;

/**
 * What applies to one handler method, and where it was written.
 *
 * @param budget the budget for authenticated requests, {@code null} for the default
 * budget
 * @param expensive whether each request takes a concurrency lease
 * @param exempt whether requests are not limited
 * @param reason why an exempt handler is exempt
 * @param source where this was written
 */
public record HandlerPolicy(String budget, boolean expensive, boolean exempt, String reason, RouteSource source) {

	static final HandlerPolicy DEFAULT = new HandlerPolicy(null, false, false, null, RouteSource.DEFAULT);

	/** The policy of a request that matched this handler on {@code pattern}. */
	public RoutePolicy toRoutePolicy(String pattern) {
		return new RoutePolicy(pattern, budget, expensive, exempt, reason);
	}
}
