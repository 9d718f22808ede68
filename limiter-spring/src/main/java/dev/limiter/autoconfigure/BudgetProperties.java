package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.limiter.core.ConcurrencyBound;
import dev.limiter.spring.BudgetScope;
import dev.limiter.spring.KeyBy;

/**
 * One budget: named windows, an optional concurrency bound, and whether refusals count.
 */
public class BudgetProperties {

	/** Windows by short name (such as minute or hour), each a limit per duration. */
	private Map<String, WindowProperties> windows = new LinkedHashMap<>();

	/** Optional bound on expensive requests in flight at once. */
	private ConcurrencyProperties concurrency;

	/** Leased quota slices: decisions made locally from a slice of the shared quota. */
	private SliceProperties slices;

	/** Whether refused requests still spend from every window; false when unset. */
	private Boolean countRefused;

	/**
	 * Whether one quota is shared by every route (key) or kept per matched route pattern
	 * (route); key when unset.
	 */
	private BudgetScope scope;

	/**
	 * Whether this budget's refusals are only counted, logged and metered, not enforced;
	 * false when unset.
	 */
	private Boolean shadow;

	/**
	 * What this budget counts an authenticated request by: credential or principal;
	 * limiter.key-by when unset.
	 */
	private KeyBy keyBy;

	/**
	 * What this budget does while the store cannot answer: open (fallback, degraded) when
	 * unset.
	 */
	private StoreFailureMode onStoreFailure;

	static BudgetProperties builtInStandard() {
		BudgetProperties budget = new BudgetProperties();
		budget.windows.put("minute", new WindowProperties(600, Duration.ofMinutes(1)));
		budget.windows.put("hour", new WindowProperties(36_000, Duration.ofHours(1)));
		budget.concurrency = new ConcurrencyProperties(10, ConcurrencyBound.DEFAULT_LEASE);
		return budget;
	}

	static BudgetProperties builtInAnonymous() {
		BudgetProperties budget = new BudgetProperties();
		budget.windows.put("minute", new WindowProperties(60, Duration.ofMinutes(1)));
		budget.windows.put("hour", new WindowProperties(1_000, Duration.ofHours(1)));
		return budget;
	}

	public Map<String, WindowProperties> getWindows() {
		return windows;
	}

	public void setWindows(Map<String, WindowProperties> windows) {
		this.windows = windows;
	}

	public ConcurrencyProperties getConcurrency() {
		return concurrency;
	}

	public void setConcurrency(ConcurrencyProperties concurrency) {
		this.concurrency = concurrency;
	}

	public SliceProperties getSlices() {
		return slices;
	}

	public void setSlices(SliceProperties slices) {
		this.slices = slices;
	}

	public Boolean getCountRefused() {
		return countRefused;
	}

	public void setCountRefused(Boolean countRefused) {
		this.countRefused = countRefused;
	}

	public BudgetScope getScope() {
		return scope;
	}

	public void setScope(BudgetScope scope) {
		this.scope = scope;
	}

	public Boolean getShadow() {
		return shadow;
	}

	public void setShadow(Boolean shadow) {
		this.shadow = shadow;
	}

	public KeyBy getKeyBy() {
		return keyBy;
	}

	public void setKeyBy(KeyBy keyBy) {
		this.keyBy = keyBy;
	}

	public StoreFailureMode getOnStoreFailure() {
		return onStoreFailure;
	}

	public void setOnStoreFailure(StoreFailureMode onStoreFailure) {
		this.onStoreFailure = onStoreFailure;
	}

}
