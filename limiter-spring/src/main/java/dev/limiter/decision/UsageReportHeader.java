package dev.limiter.decision;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import dev.limiter.spring.RateLimitUsage;

/**
 * A usage report in a response header ({@code limiter.gateway.report-header}, such as
 * {@code X-Usage-Tokens: 1234}): a backend behind a gateway tells what a call cost
 * without any limiter code of its own, and the gateway settles that amount against what
 * the request reserved, once. The amount counts in every unit other than requests that
 * the request's budget counts (a budget counts one such unit in practice). No servlet or
 * reactive type: each gateway server hands it the header's values and strips the header
 * before the response reaches the client.
 *
 * <p>
 * A value is one non-negative decimal integer of at most {@value #MAX_DIGITS} digits,
 * optionally surrounded by spaces or tabs. A header that is absent, or that is not one
 * such value (several values, a sign, a fraction, a list, too many digits), reports
 * nothing: the request's estimate stays counted, and each unit's windows count one
 * {@code limiter.settlements.dropped} with {@code reason=missing} or
 * {@code reason=malformed}.
 */
public final class UsageReportHeader {

	/** The drop's reason when the response carried no report. */
	public static final String MISSING = "missing";

	/** The drop's reason when the response's report could not be read. */
	public static final String MALFORMED = "malformed";

	/** The most digits a value may have: every such value fits a {@code long}. */
	public static final int MAX_DIGITS = 18;

	private final String name;

	private final RateLimitObservers observers;

	/**
	 * @param name the header's name (see {@link #isFieldName})
	 * @throws IllegalArgumentException for a name that is no HTTP field name
	 */
	public UsageReportHeader(String name, RateLimitObservers observers) {
		if (!isFieldName(name)) {
			throw new IllegalArgumentException("not an HTTP header name: '" + name + "'");
		}
		this.name = name;
		this.observers = Objects.requireNonNull(observers, "observers");
	}

	/** The header's name, as configured. */
	public String name() {
		return name;
	}

	/**
	 * Reports the amount the response's header carries to {@code usage}, in every unit
	 * {@code budget} counts other than requests; a missing or malformed header reports
	 * nothing and is counted as dropped.
	 * @param values the header's values on the response, each line one element (empty or
	 * {@code null}: absent)
	 * @return the amount reported; empty when none was
	 */
	public OptionalLong report(List<String> values, Budget budget, RateLimitUsage usage) {
		Set<String> units = units(budget);
		if (values == null || values.isEmpty()) {
			observers.reportDropped(budget, units, MISSING);
			return OptionalLong.empty();
		}
		OptionalLong amount = (values.size() == 1) ? amount(values.get(0)) : OptionalLong.empty();
		if (amount.isEmpty()) {
			observers.reportDropped(budget, units, MALFORMED);
			return amount;
		}
		for (String unit : units) {
			usage.add(unit, amount.getAsLong());
		}
		return amount;
	}

	/**
	 * The amount one header value carries: a non-negative decimal integer of at most
	 * {@value #MAX_DIGITS} digits between optional spaces or tabs; empty otherwise.
	 */
	public static OptionalLong amount(String value) {
		if (value == null) {
			return OptionalLong.empty();
		}
		int start = 0;
		int end = value.length();
		while (start < end && isWhitespace(value.charAt(start))) {
			start++;
		}
		while (end > start && isWhitespace(value.charAt(end - 1))) {
			end--;
		}
		if (start == end || end - start > MAX_DIGITS) {
			return OptionalLong.empty();
		}
		long amount = 0;
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				return OptionalLong.empty();
			}
			amount = amount * 10 + (c - '0');
		}
		return OptionalLong.of(amount);
	}

	/** Whether {@code name} is an HTTP field name: one or more of RFC 9110's tchar. */
	public static boolean isFieldName(String name) {
		if (name == null || name.isEmpty()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
			if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
				return false;
			}
		}
		return true;
	}

	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

	private static Set<String> units(Budget budget) {
		Set<String> units = new LinkedHashSet<>();
		for (Window window : budget.windows()) {
			if (!window.countsRequests()) {
				units.add(window.unit());
			}
		}
		return units;
	}

}
