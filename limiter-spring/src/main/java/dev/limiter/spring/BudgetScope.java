package dev.limiter.spring;

/** What a budget's counters are keyed on besides the caller. */
public enum BudgetScope {

	/** One quota per caller, shared by every route of the budget. */
	KEY,

	/**
	 * One quota per caller and matched route pattern: {@code /links/{id}}, never the raw
	 * path, so a caller cycling ids still spends from one counter.
	 */
	ROUTE

}
