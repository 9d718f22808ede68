package dev.limiter.spring;

import java.util.Map;

/**
 * How each budget is applied beyond its bounds: its {@link BudgetScope}, what it counts a
 * caller by ({@link KeyBy}) and whether its refusals are enforced or only observed
 * (shadow mode). Immutable.
 */
public final class BudgetOptions {

	/** Every budget keyed on the caller only and enforced. */
	public static final BudgetOptions DEFAULTS = new BudgetOptions(false, Map.of(), Map.of());

	private final boolean shadowEverywhere;

	private final Map<String, BudgetScope> scopes;

	private final Map<String, Boolean> shadows;

	private final KeyBy defaultKeyBy;

	private final Map<String, KeyBy> keyBys;

	/**
	 * @param shadowEverywhere whether every budget is in shadow mode
	 * ({@code limiter.mode: shadow})
	 * @param scopes scope by budget name; a missing budget is {@link BudgetScope#KEY}
	 * @param shadows per-budget shadow flag; a missing budget follows
	 * {@code shadowEverywhere}
	 */
	public BudgetOptions(boolean shadowEverywhere, Map<String, BudgetScope> scopes, Map<String, Boolean> shadows) {
		this(shadowEverywhere, scopes, shadows, KeyBy.CREDENTIAL, Map.of());
	}

	/**
	 * @param defaultKeyBy what a budget without its own {@code key-by} counts by
	 * ({@code limiter.key-by})
	 * @param keyBys per-budget {@code key-by}; a missing budget follows
	 * {@code defaultKeyBy}
	 */
	public BudgetOptions(boolean shadowEverywhere, Map<String, BudgetScope> scopes, Map<String, Boolean> shadows,
			KeyBy defaultKeyBy, Map<String, KeyBy> keyBys) {
		this.shadowEverywhere = shadowEverywhere;
		this.scopes = Map.copyOf(scopes);
		this.shadows = Map.copyOf(shadows);
		this.defaultKeyBy = defaultKeyBy == null ? KeyBy.CREDENTIAL : defaultKeyBy;
		this.keyBys = Map.copyOf(keyBys);
	}

	public BudgetScope scope(String budget) {
		return scopes.getOrDefault(budget, BudgetScope.KEY);
	}

	/**
	 * Whether this budget counts an authenticated caller per credential or per principal.
	 */
	public KeyBy keyBy(String budget) {
		return keyBys.getOrDefault(budget, defaultKeyBy);
	}

	/**
	 * Whether refusals of this budget are let through (and marked) instead of enforced.
	 */
	public boolean shadow(String budget) {
		return shadowEverywhere || shadows.getOrDefault(budget, false);
	}

	/**
	 * Whether any budget counts per route, which makes the matched route pattern part of
	 * the counter key.
	 */
	public boolean anyRouteScope() {
		return scopes.containsValue(BudgetScope.ROUTE);
	}

	public boolean shadowEverywhere() {
		return shadowEverywhere;
	}

}
