package dev.limiter.spring;

import java.util.Map;
import java.util.regex.Pattern;

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
 * @param estimates per unit other than requests, what a request reserves before its
 * handler runs (a unit not named reserves 1; ADR 0012); never {@code null}
 */
public record RoutePolicy(String pattern, String budget, boolean expensive, boolean exempt, String reason,
		Map<String, Long> estimates) {

	/** No rule matched: the default budget, not expensive. */
	public static final RoutePolicy DEFAULT = new RoutePolicy(null, null, false, false, null);

	private static final Pattern UNIT = Pattern.compile("[a-z0-9-]{1,32}");

	public RoutePolicy {
		estimates = (estimates == null) ? Map.of() : Map.copyOf(estimates);
	}

	/** A policy that reserves 1 of every unit. */
	public RoutePolicy(String pattern, String budget, boolean expensive, boolean exempt, String reason) {
		this(pattern, budget, expensive, exempt, reason, Map.of());
	}

	/**
	 * Why {@code estimates} cannot be used, {@code null} when it can: every unit 1 to 32
	 * of {@code a-z 0-9 -}, every amount at least 1.
	 */
	public static String checkEstimates(Map<String, Long> estimates) {
		for (Map.Entry<String, Long> estimate : estimates.entrySet()) {
			if (!UNIT.matcher(estimate.getKey()).matches()) {
				return "unit '" + estimate.getKey() + "' must be 1 to 32 of a-z, 0-9 and '-'";
			}
			if (estimate.getValue() == null || estimate.getValue() < 1) {
				return "estimate of '" + estimate.getKey() + "' must be at least 1, was " + estimate.getValue();
			}
		}
		return null;
	}

	/**
	 * The same policy on another matched route pattern (masked, such as
	 * {@code /links/{id}}).
	 */
	public RoutePolicy withPattern(String matchedPattern) {
		return new RoutePolicy(matchedPattern, budget, expensive, exempt, reason, estimates);
	}
}
