package dev.limiter.decision;

import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RoutePolicy;

/**
 * The counter key of a request: the caller's key, and for a {@link BudgetScope#ROUTE}
 * budget also the matched route pattern ({@code t:...@/links/%7Bid%7D}). The pattern is
 * masked ({@code /links/{id}}), never the raw path, so cycling ids buys nothing; a
 * request that matched no handler and no rule shares one {@value #UNMATCHED} counter.
 * Braces are percent-encoded so that they can never move the Redis Cluster hash tag
 * around the key.
 */
public final class RouteScopedKeys {

	/**
	 * Stands in for the route of a request that no handler and no rule matched (a 404).
	 */
	public static final String UNMATCHED = "(unmatched)";

	private static final char SEPARATOR = '@';

	private RouteScopedKeys() {
	}

	/**
	 * The counter key of {@code caller} in {@code budget}: by credential or principal,
	 * and per route if scoped so.
	 */
	public static String counterKey(CallerKey caller, RoutePolicy route, BudgetOptions options, String budget) {
		return counterKey(caller.keyedBy(options.keyBy(budget)), route, options.scope(budget));
	}

	public static String counterKey(CallerKey caller, RoutePolicy route, BudgetScope scope) {
		if (scope != BudgetScope.ROUTE) {
			return caller.value();
		}
		String pattern = route.pattern() == null ? UNMATCHED : route.pattern();
		return caller.value() + SEPARATOR + encode(pattern);
	}

	/** The counter key of a caller key on one route pattern. */
	public static String withRoute(String callerKey, String pattern) {
		return callerKey + SEPARATOR + encode(pattern);
	}

	static String encode(String pattern) {
		StringBuilder out = new StringBuilder(pattern.length() + 8);
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			switch (c) {
				case '%' -> out.append("%25");
				case '{' -> out.append("%7B");
				case '}' -> out.append("%7D");
				default -> out.append(c);
			}
		}
		return out.toString();
	}

}
