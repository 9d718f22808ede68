package dev.limiter.observation;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.decision.RouteScopedKeys;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;

/**
 * The limiter's observations as docs/observability.md describes them, one instance per
 * {@link LimiterDecisionContext.Kind} (an observation's name is its convention's).
 * Low-cardinality key values (meter tags and span tags) come from configuration or small
 * fixed sets; the caller's key and the {@code Retry-After} are high-cardinality (span
 * tags only). Never a token, never a raw path.
 *
 * <table>
 * <caption>Names and low-cardinality key values</caption>
 * <tr>
 * <th>name</th>
 * <th>key values</th>
 * </tr>
 * <tr>
 * <td>{@code limiter.decision}</td>
 * <td>{@code limiter.budget}, {@code limiter.route}, {@code limiter.outcome},
 * {@code limiter.store}, {@code limiter.algorithm}, {@code limiter.window}</td>
 * </tr>
 * <tr>
 * <td>{@code limiter.store}</td>
 * <td>{@code limiter.budget}, {@code limiter.store}</td>
 * </tr>
 * <tr>
 * <td>{@code limiter.settlement}, {@code limiter.lease.release}</td>
 * <td>{@code limiter.budget}, {@code limiter.store}, {@code limiter.outcome}</td>
 * </tr>
 * </table>
 */
public class DefaultLimiterDecisionObservationConvention implements LimiterDecisionObservationConvention {

	/** Name of the observation of a decision. */
	public static final String DECISION = "limiter.decision";

	/** Name of the observation of the store call a decision waited on. */
	public static final String STORE = "limiter.store";

	/** Name of the observation of a settlement sent after the response. */
	public static final String SETTLEMENT = "limiter.settlement";

	/** Name of the observation of a lease handed back after the response. */
	public static final String LEASE_RELEASE = "limiter.lease.release";

	/** The budget's name; {@code none} for an exempt request. */
	public static final String BUDGET = "limiter.budget";

	/** The matched route pattern; {@code (unmatched)} when none matched. */
	public static final String ROUTE = "limiter.route";

	/**
	 * {@code admitted}, {@code refused}, {@code degraded}, {@code shadow-refused},
	 * {@code exempt}, {@code unavailable}; after the response {@code settled} or
	 * {@code released}, else {@code failed}.
	 */
	public static final String OUTCOME = "limiter.outcome";

	/**
	 * The store's name ({@code memory}, {@code redis}); {@code none} for exempt requests.
	 */
	public static final String STORE_NAME = "limiter.store";

	/**
	 * The refusing window's algorithm when refused, else the budget's
	 * ({@code fixed-window}, {@code sliding-window}, {@code token-bucket}; {@code mixed}
	 * when its windows differ, {@code none} for exempt requests).
	 */
	public static final String ALGORITHM = "limiter.algorithm";

	/**
	 * The refusing bound (a window's name or {@code concurrency}); {@code none} when
	 * admitted.
	 */
	public static final String WINDOW = "limiter.window";

	/** High cardinality: the caller's key, as the endpoint's key lookup takes it. */
	public static final String KEY = "limiter.key";

	/** High cardinality: the refusal's {@code Retry-After}, in seconds. */
	public static final String RETRY_AFTER = "limiter.retry-after";

	/** The value of a key value that does not apply. */
	public static final String NONE = "none";

	private static final Map<LimiterDecisionContext.Kind, DefaultLimiterDecisionObservationConvention> DEFAULTS = new EnumMap<>(
			LimiterDecisionContext.Kind.class);

	static {
		for (LimiterDecisionContext.Kind kind : LimiterDecisionContext.Kind.values()) {
			DEFAULTS.put(kind, new DefaultLimiterDecisionObservationConvention(kind));
		}
	}

	/**
	 * Most sets of low-cardinality key values kept once built, per kind; beyond, a set is
	 * built for each observation.
	 */
	private static final int MAX_BUILT = 1024;

	private final LimiterDecisionContext.Kind kind;

	/**
	 * The key values already built, by their values: an observation is started and
	 * stopped on every decision, and building (and sorting) the same few sets again each
	 * time was most of what the limiter itself added to it.
	 */
	private final Map<LowCardinality, KeyValues> built = new ConcurrentHashMap<>();

	/** The convention of {@code limiter.decision}. */
	public DefaultLimiterDecisionObservationConvention() {
		this(LimiterDecisionContext.Kind.DECISION);
	}

	/** The convention of the observations of {@code kind}. */
	protected DefaultLimiterDecisionObservationConvention(LimiterDecisionContext.Kind kind) {
		this.kind = kind;
	}

	/** The default convention of the observations of {@code kind}. */
	public static DefaultLimiterDecisionObservationConvention of(LimiterDecisionContext.Kind kind) {
		return DEFAULTS.get(kind);
	}

	@Override
	public String getName() {
		return switch (kind) {
			case DECISION -> DECISION;
			case STORE -> STORE;
			case SETTLEMENT -> SETTLEMENT;
			case LEASE_RELEASE -> LEASE_RELEASE;
		};
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LimiterDecisionContext limiter && limiter.getKind() == kind;
	}

	@Override
	public String getContextualName(LimiterDecisionContext context) {
		return switch (context.getKind()) {
			case DECISION -> "limiter decision";
			case STORE -> "limiter store";
			case SETTLEMENT -> "limiter settlement";
			case LEASE_RELEASE -> "limiter lease release";
		};
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LimiterDecisionContext context) {
		String budget = orNone(context.getBudgetName());
		String store = orNone(context.getStore());
		LowCardinality values = switch (context.getKind()) {
			case DECISION -> new LowCardinality(budget, route(context),
					(context.getOutcome() != null) ? context.getOutcome().value() : NONE, store, algorithm(context),
					window(context.getDecision()));
			case STORE -> new LowCardinality(budget, null, null, store, null, null);
			case SETTLEMENT -> new LowCardinality(budget, null, (context.getFailure() == null) ? "settled" : "failed",
					store, null, null);
			case LEASE_RELEASE -> new LowCardinality(budget, null,
					(context.getFailure() == null) ? "released" : "failed", store, null, null);
		};
		KeyValues made = this.built.get(values);
		if (made == null) {
			made = values.keyValues();
			if (this.built.size() < MAX_BUILT) {
				this.built.putIfAbsent(values, made);
			}
		}
		return made;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LimiterDecisionContext context) {
		if (context.getKind() != LimiterDecisionContext.Kind.DECISION || context.getKey() == null) {
			return KeyValues.empty();
		}
		KeyValues values = KeyValues.of(KEY, context.getKey());
		Decision decision = context.getDecision();
		if (decision != null && !decision.allowed()) {
			values = values.and(RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
		}
		return values;
	}

	private static String route(LimiterDecisionContext context) {
		if (context.getRoute() == null || context.getRoute().pattern() == null) {
			return RouteScopedKeys.UNMATCHED;
		}
		return context.getRoute().pattern();
	}

	private static String window(Decision decision) {
		return (decision == null || decision.allowed()) ? NONE : decision.refusingBound().get().name();
	}

	private static String algorithm(LimiterDecisionContext context) {
		Budget budget = context.getBudget();
		if (budget == null) {
			return NONE;
		}
		String refusing = window(context.getDecision());
		for (Window window : budget.windows()) {
			if (window.name().equals(refusing)) {
				return window.algorithm().value();
			}
		}
		WindowAlgorithm found = null;
		for (Window window : budget.windows()) {
			if (found != null && found != window.algorithm()) {
				return "mixed";
			}
			found = window.algorithm();
		}
		return (found != null) ? found.value() : NONE;
	}

	private static String orNone(String value) {
		return (value != null) ? value : NONE;
	}

	/**
	 * The low-cardinality values of one observation; {@code null} for a key this kind of
	 * observation does not carry.
	 */
	private record LowCardinality(String budget, String route, String outcome, String store, String algorithm,
			String window) {

		KeyValues keyValues() {
			List<KeyValue> values = new ArrayList<>(6);
			values.add(KeyValue.of(BUDGET, this.budget));
			add(values, ROUTE, this.route);
			add(values, OUTCOME, this.outcome);
			values.add(KeyValue.of(STORE_NAME, this.store));
			add(values, ALGORITHM, this.algorithm);
			add(values, WINDOW, this.window);
			return KeyValues.of(values);
		}

		/*
		 * Written out: the values are nearly always the very strings of the configuration
		 * (same instances), which the generated equals and hashCode would not use and
		 * which showed in profiles of every decision.
		 */

		@Override
		public boolean equals(Object other) {
			return other instanceof LowCardinality that && same(this.budget, that.budget)
					&& same(this.route, that.route) && same(this.outcome, that.outcome) && same(this.store, that.store)
					&& same(this.algorithm, that.algorithm) && same(this.window, that.window);
		}

		@Override
		public int hashCode() {
			int hash = hash(0, this.budget);
			hash = hash(hash, this.route);
			hash = hash(hash, this.outcome);
			hash = hash(hash, this.store);
			hash = hash(hash, this.algorithm);
			return hash(hash, this.window);
		}

		private static int hash(int hash, String value) {
			return 31 * hash + ((value != null) ? value.hashCode() : 0);
		}

		private static boolean same(String a, String b) {
			return a == b || (a != null && a.equals(b));
		}

		private static void add(List<KeyValue> values, String key, String value) {
			if (value != null) {
				values.add(KeyValue.of(key, value));
			}
		}

	}

}
