package dev.limiter.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every handler of the application with the policy it resolves to and where that was
 * written, plus the {@code limiter.routes} rules that match no handler. Built once at
 * start-up. Immutable.
 *
 * @param entries one per handler pattern, sorted by pattern
 * @param deadRules the rules that match no handler, each as
 * {@code limiter.routes[i] (pattern)}
 */
public record RouteInventory(List<Entry> entries, List<String> deadRules) {

	public RouteInventory {
		entries = List.copyOf(entries);
		deadRules = List.copyOf(deadRules);
	}

	/**
	 * Handlers marked expensive whose budget has no concurrency bound: their requests
	 * take no lease, so nothing bounds how many run at once.
	 */
	public List<Entry> expensiveWithoutConcurrency() {
		return entries.stream().filter(Entry::expensiveWithoutConcurrency).toList();
	}

	/** Handlers that fall to the default budget because nothing was written for them. */
	public List<Entry> implicitDefaults() {
		return entries.stream().filter(entry -> entry.source() == RouteSource.DEFAULT).toList();
	}

	/**
	 * One handler pattern.
	 *
	 * @param methods HTTP methods, empty for every method
	 * @param pattern the handler's path pattern
	 * @param handler {@code SimpleClassName#method}, or a functional route's predicate
	 * @param budget the budget authenticated requests are counted against ({@code null}
	 * when exempt)
	 * @param expensive whether each request takes a concurrency lease
	 * @param exempt whether requests are not limited
	 * @param reason why an exempt handler is exempt
	 * @param source where the policy was written
	 * @param unbounded whether the handler is expensive on a budget without a concurrency
	 * bound (its requests take no lease)
	 */
	public record Entry(List<String> methods, String pattern, String handler, String budget, boolean expensive,
			boolean exempt, String reason, RouteSource source, boolean unbounded) {

		public Entry {
			methods = List.copyOf(methods);
		}

		/** An entry whose budget bounds its concurrency if it is expensive. */
		public Entry(List<String> methods, String pattern, String handler, String budget, boolean expensive,
				boolean exempt, String reason, RouteSource source) {
			this(methods, pattern, handler, budget, expensive, exempt, reason, source, false);
		}

		/** Expensive, yet no lease is taken: the budget has no concurrency bound. */
		public boolean expensiveWithoutConcurrency() {
			return expensive && !exempt && unbounded;
		}

		String methodsLabel() {
			return methods.isEmpty() ? "*" : String.join(",", methods);
		}

		String policyLabel() {
			if (exempt) {
				return "exempt (" + reason + ")";
			}
			if (expensiveWithoutConcurrency()) {
				return budget + ", expensive WITHOUT A CONCURRENCY BOUND (no lease)";
			}
			return budget + (expensive ? ", expensive" : "");
		}
	}

	/** The inventory as a text table, one handler per line, for the start-up log. */
	public String toTable() {
		List<String[]> rows = new ArrayList<>();
		rows.add(new String[] { "METHODS", "PATTERN", "HANDLER", "POLICY", "SOURCE" });
		for (Entry entry : entries) {
			rows.add(new String[] { entry.methodsLabel(), entry.pattern(), entry.handler(), entry.policyLabel(),
					entry.source().label() });
		}
		int[] widths = new int[5];
		for (String[] row : rows) {
			for (int i = 0; i < row.length; i++) {
				widths[i] = Math.max(widths[i], row[i].length());
			}
		}
		StringBuilder table = new StringBuilder();
		for (String[] row : rows) {
			table.append('\n');
			for (int i = 0; i < row.length; i++) {
				table.append(
						i == row.length - 1 ? row[i] : String.format(Locale.ROOT, "%-" + widths[i] + "s  ", row[i]));
			}
		}
		for (String dead : deadRules) {
			table.append("\nrule matching no handler: ").append(dead);
		}
		return table.toString();
	}
}
