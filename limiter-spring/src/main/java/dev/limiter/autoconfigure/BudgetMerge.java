package dev.limiter.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The budgets in effect: the built-in ones with the written ones laid over them field by
 * field, then the other written ones. Builds new objects; the bound properties are never
 * changed.
 */
final class BudgetMerge {

	private BudgetMerge() {
	}

	static Map<String, BudgetProperties> effectiveBudgets(LimiterProperties properties) {
		Map<String, BudgetProperties> effective = LimiterProperties.builtInBudgets();
		Map<String, BudgetProperties> written = properties.getBudgets() == null ? Map.of() : properties.getBudgets();
		written.forEach((name, budget) -> {
			BudgetProperties base = effective.get(name);
			BudgetProperties merged = base == null ? budget : overlay(base, budget);
			effective.put(name, merged == null ? new BudgetProperties() : merged);
		});
		return effective;
	}

	private static BudgetProperties overlay(BudgetProperties base, BudgetProperties written) {
		if (written == null) {
			return base;
		}
		BudgetProperties merged = new BudgetProperties();
		Map<String, WindowProperties> windows = new LinkedHashMap<>();
		base.getWindows().forEach((name, window) -> windows.put(name, copy(window, null)));
		if (written.getWindows() != null) {
			written.getWindows().forEach((name, window) -> windows.put(name, copy(windows.get(name), window)));
		}
		merged.setWindows(windows);
		merged.setConcurrency(concurrency(base.getConcurrency(), written.getConcurrency()));
		merged.setSlices(first(written.getSlices(), base.getSlices()));
		merged.setCountRefused(first(written.getCountRefused(), base.getCountRefused()));
		merged.setScope(first(written.getScope(), base.getScope()));
		merged.setShadow(first(written.getShadow(), base.getShadow()));
		merged.setKeyBy(first(written.getKeyBy(), base.getKeyBy()));
		merged.setOnStoreFailure(first(written.getOnStoreFailure(), base.getOnStoreFailure()));
		return merged;
	}

	/** A written concurrency bound without a max keeps the built-in max. */
	private static ConcurrencyProperties concurrency(ConcurrencyProperties base, ConcurrencyProperties written) {
		if (written == null) {
			return base;
		}
		ConcurrencyProperties merged = new ConcurrencyProperties();
		merged.setMax(written.getMax() == null && base != null ? base.getMax() : written.getMax());
		merged.setLease(written.getLease());
		return merged;
	}

	private static WindowProperties copy(WindowProperties base, WindowProperties written) {
		WindowProperties copy = new WindowProperties();
		if (base != null) {
			copy.setLimit(base.getLimit());
			copy.setDuration(base.getDuration());
			copy.setAlgorithm(base.getAlgorithm());
			copy.setBurst(base.getBurst());
			copy.setResolution(base.getResolution());
			copy.setUnit(base.getUnit());
			copy.setMaxReport(base.getMaxReport());
			copy.setCalendar(base.getCalendar());
			copy.setZone(base.getZone());
			copy.setWeekStart(base.getWeekStart());
			copy.setNotifyAt(base.getNotifyAt());
		}
		if (written != null) {
			copy.setLimit(first(written.getLimit(), copy.getLimit()));
			copy.setDuration(first(written.getDuration(), copy.getDuration()));
			copy.setAlgorithm(first(written.getAlgorithm(), copy.getAlgorithm()));
			copy.setBurst(first(written.getBurst(), copy.getBurst()));
			copy.setResolution(first(written.getResolution(), copy.getResolution()));
			copy.setUnit(first(written.getUnit(), copy.getUnit()));
			copy.setMaxReport(first(written.getMaxReport(), copy.getMaxReport()));
			copy.setCalendar(first(written.getCalendar(), copy.getCalendar()));
			copy.setZone(first(written.getZone(), copy.getZone()));
			copy.setWeekStart(first(written.getWeekStart(), copy.getWeekStart()));
			copy.setNotifyAt(first(written.getNotifyAt(), copy.getNotifyAt()));
			if (written.getCalendar() != null && written.getDuration() == null) {
				// a calendar written over a built-in window replaces its duration
				copy.setDuration(null);
			}
		}
		return copy;
	}

	private static <T> T first(T written, T base) {
		return written != null ? written : base;
	}

}
