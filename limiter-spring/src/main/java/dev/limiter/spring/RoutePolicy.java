package dev.limiter.spring;

/**
 * How the requests of one route are counted.
 *
 * @param pattern the matching rule's pattern (a masked route such as
 * {@code /links/{id}}), {@code null} when no rule matched
 * @param budget the budget for authenticated requests; {@code null} means the default
 * budget
 * @param expensive whether the request also takes a concurrency lease
 * @param exempt whether the request is not limited at all
 * @param reason why an exempt route is exempt
 */
public record RoutePolicy(String pattern, String budget, boolean expensive, boolean exempt, String reason) {

	/** No rule matched: the default budget, not expensive. */
	public static final RoutePolicy DEFAULT = new RoutePolicy(null, null, false, false, null);

	/**
	 * The same policy on another matched route pattern (masked, such as
	 * {@code /links/{id}}).
	 */
	public RoutePolicy withPattern(String matchedPattern) {
		return new RoutePolicy(matchedPattern, budget, expensive, exempt, reason);
	}
}
