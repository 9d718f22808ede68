package dev.limiter.autoconfigure;

/**
 * {@code limiter.budget-definitions.*}: the budgets a {@code BudgetDefinitionSelector}
 * builds at run time.
 */
public class BudgetDefinitionsProperties {

	/**
	 * Most definition identities kept at once; past it an arbitrary one is forgotten and
	 * built again when met again.
	 */
	private int maxCached = 10_000;

	public int getMaxCached() {
		return maxCached;
	}

	public void setMaxCached(int maxCached) {
		this.maxCached = maxCached;
	}

}
