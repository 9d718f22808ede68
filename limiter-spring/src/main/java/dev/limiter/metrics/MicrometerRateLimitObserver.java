package dev.limiter.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The limiter's Micrometer meters. Tags are bounded: budget and window names come from
 * configuration, outcome, reason and mode from small fixed sets. Never a key, a token or
 * a raw path. Meters are looked up once per tag combination and cached.
 */
public class MicrometerRateLimitObserver implements RateLimitObserver {

	/** Counter of every request the limiter handled. */
	public static final String REQUESTS = "limiter.requests";

	/** Timer of the store call that decided a request. */
	public static final String STORE_LATENCY = "limiter.store.latency";

	/**
	 * Counter of admitted requests that left less than a share of a window
	 * ({@code limiter.metrics.near-limit-threshold}, 20 % by default).
	 */
	public static final String NEAR_LIMIT = "limiter.near.limit";

	/** Gauge of the concurrency leases this instance's requests hold now. */
	public static final String LEASES_ACTIVE = "limiter.leases.active";

	/** Gauge of the run-time budget definitions cached. */
	public static final String BUDGET_DEFINITIONS = "limiter.budget.definitions";

	/** Gauge of the bound on the run-time budget definitions cached. */
	public static final String BUDGET_DEFINITIONS_MAX = "limiter.budget.definitions.max";

	/** Counter of the run-time budget definitions forgotten to stay within the bound. */
	public static final String BUDGET_DEFINITIONS_EVICTED = "limiter.budget.definitions.evicted";

	/** Counter of units reserved before handlers ran, by budget and unit (ADR 0012). */
	public static final String UNITS_RESERVED = "limiter.units.reserved";

	/** Counter of units settled beyond their estimates, by budget and unit. */
	public static final String UNITS_SETTLED = "limiter.units.settled";

	/** Counter of units of estimates given back by settlements, by budget and unit. */
	public static final String UNITS_REFUNDED = "limiter.units.refunded";

	/** Counter of settlement deltas dropped, by budget, window and reason. */
	public static final String SETTLEMENTS_DROPPED = "limiter.settlements.dropped";

	/** Counter of settlements the store could not apply, by budget. */
	public static final String SETTLEMENTS_FAILED = "limiter.settlements.failed";

	/** The near-limit share of a window left when none is configured. */
	public static final double DEFAULT_NEAR_LIMIT_THRESHOLD = 0.2;

	/**
	 * Tag value where a tag does not apply (an exempt request has no budget, no reason,
	 * no store mode).
	 */
	public static final String NONE = "none";

	private final MeterRegistry registry;

	private final Timer storeLatency;

	private final double nearLimitThreshold;

	private final Map<RequestTags, Counter> requests = new ConcurrentHashMap<>();

	private final Map<NearLimitTags, Counter> nearLimit = new ConcurrentHashMap<>();

	/**
	 * The counter of the commonest decision, allowed and authoritative, by budget: found
	 * without making a tag record per request.
	 */
	private final Map<String, Counter> allowed = new ConcurrentHashMap<>();

	/** The reserve and settle counters, by name and tags. */
	private final Map<List<String>, Counter> settlementCounters = new ConcurrentHashMap<>();

	/** Leases held by this instance's requests, by budget; each has its gauge. */
	private final Map<String, AtomicLong> leases = new ConcurrentHashMap<>();

	public MicrometerRateLimitObserver(MeterRegistry registry, String storeName) {
		this(registry, storeName, DEFAULT_NEAR_LIMIT_THRESHOLD, false);
	}

	/**
	 * @param nearLimitThreshold the share of a window left (0 to 1, exclusive) below
	 * which an admission counts in {@value #NEAR_LIMIT}
	 * @param storeLatencyHistogram whether {@value #STORE_LATENCY} publishes a percentile
	 * histogram
	 */
	public MicrometerRateLimitObserver(MeterRegistry registry, String storeName, double nearLimitThreshold,
			boolean storeLatencyHistogram) {
		if (!(nearLimitThreshold > 0 && nearLimitThreshold < 1)) {
			throw new IllegalArgumentException("nearLimitThreshold must be between 0 and 1, was " + nearLimitThreshold);
		}
		this.registry = registry;
		this.nearLimitThreshold = nearLimitThreshold;
		Timer.Builder latency = Timer.builder(STORE_LATENCY)
			.description("Time the rate-limit store took to decide one request")
			.tag("store", storeName);
		if (storeLatencyHistogram) {
			// from an in-process decision to a store call at its timeout
			latency.publishPercentileHistogram()
				.minimumExpectedValue(Duration.ofNanos(100_000))
				.maximumExpectedValue(Duration.ofSeconds(5));
		}
		this.storeLatency = latency.register(registry);
	}

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		if (outcome == RateLimitOutcome.ALLOWED && decision.allowed() && !decision.degraded()) {
			allowedCounter(decision.budget()).increment();
		}
		else {
			String reason = decision.refusingBound().map(BoundVerdict::name).orElse(NONE);
			String mode = decision.degraded() ? "degraded" : "authoritative";
			requests(new RequestTags(decision.budget(), outcome.tag(), reason, mode)).increment();
		}
		storeLatency.record(storeNanos, TimeUnit.NANOSECONDS);
		if (decision.lease().isPresent()) {
			leases(decision.budget()).incrementAndGet();
		}
		if (outcome == RateLimitOutcome.ALLOWED) {
			BoundVerdict nearest = nearestToLimit(decision);
			if (nearest != null && nearest.remaining() < nearLimitThreshold * nearest.limit()) {
				nearLimit
					.computeIfAbsent(new NearLimitTags(decision.budget(), nearest.name()),
							tags -> Counter.builder(NEAR_LIMIT)
								.description("Admitted requests that left less than "
										+ Math.round(nearLimitThreshold * 100) + " % of a window of their budget")
								.tag("budget", tags.budget())
								.tag("window", tags.window())
								.register(registry))
					.increment();
			}
		}
	}

	@Override
	public void onReserved(String budget, String unit, long amount) {
		unitCounter(UNITS_RESERVED, "Units reserved before handlers ran", budget, unit).increment(amount);
	}

	@Override
	public void onSettled(String budget, String unit, long charged, long refunded) {
		if (charged > 0) {
			unitCounter(UNITS_SETTLED, "Units settled beyond their estimates", budget, unit).increment(charged);
		}
		if (refunded > 0) {
			unitCounter(UNITS_REFUNDED, "Units of estimates given back", budget, unit).increment(refunded);
		}
	}

	@Override
	public void onSettlementDropped(String budget, String window, String reason) {
		settlementCounters
			.computeIfAbsent(List.of(SETTLEMENTS_DROPPED, budget, window, reason),
					(tags) -> Counter.builder(SETTLEMENTS_DROPPED)
						.description("Settlement deltas and reports dropped, by budget, window and reason "
								+ "(window-ended, reported-after-end, unit-not-counted, clamped, missing, malformed)")
						.tag("budget", budget)
						.tag("window", window)
						.tag("reason", reason)
						.register(registry))
			.increment();
	}

	@Override
	public void onSettlementFailed(String budget, Throwable failure) {
		settlementCounters
			.computeIfAbsent(List.of(SETTLEMENTS_FAILED, budget),
					(tags) -> Counter.builder(SETTLEMENTS_FAILED)
						.description("Settlements the store could not apply (failed or timed out), by budget")
						.tag("budget", budget)
						.register(registry))
			.increment();
	}

	private Counter unitCounter(String name, String description, String budget, String unit) {
		return settlementCounters.computeIfAbsent(List.of(name, budget, unit),
				(tags) -> Counter.builder(name)
					.description(description + ", by budget and unit")
					.tag("budget", budget)
					.tag("unit", unit)
					.register(registry));
	}

	@Override
	public void onLeaseReleased(String budget) {
		leases(budget).decrementAndGet();
	}

	private AtomicLong leases(String budget) {
		AtomicLong held = leases.get(budget);
		if (held != null) {
			return held;
		}
		return leases.computeIfAbsent(budget, name -> {
			AtomicLong count = new AtomicLong();
			Gauge.builder(LEASES_ACTIVE, count, AtomicLong::get)
				.description("Concurrency leases the requests of this instance hold now (expensive requests in flight)")
				.tag("budget", name)
				.strongReference(true)
				.register(registry);
			return count;
		});
	}

	@Override
	public void onExempt(RoutePolicy route) {
		requests(new RequestTags(NONE, RateLimitOutcome.EXEMPT.tag(), NONE, NONE)).increment();
	}

	private Counter allowedCounter(String budget) {
		Counter counter = allowed.get(budget);
		if (counter == null) {
			counter = requests(new RequestTags(budget, RateLimitOutcome.ALLOWED.tag(), NONE, "authoritative"));
			allowed.put(budget, counter);
		}
		return counter;
	}

	private Counter requests(RequestTags tags) {
		Counter counter = requests.get(tags);
		if (counter != null) {
			return counter;
		}
		return requests.computeIfAbsent(tags,
				t -> Counter.builder(REQUESTS)
					.description("Requests handled by the rate limiter, by budget, outcome (allowed, refused, "
							+ "shadow-refused, exempt), reason (the refusing bound or none) and store mode")
					.tag("budget", t.budget())
					.tag("outcome", t.outcome())
					.tag("reason", t.reason())
					.tag("mode", t.mode())
					.register(registry));
	}

	/**
	 * Meters of the run-time budget definitions' cache.
	 * @param cache the cache the meters read
	 * @param cached identities cached now
	 * @param evicted identities forgotten since start-up
	 * @param max the cache's bound
	 */
	public static <T> void bindBudgetDefinitions(MeterRegistry registry, T cache, ToDoubleFunction<T> cached,
			ToDoubleFunction<T> evicted, int max) {
		// the cache is a bean, held by the context: Micrometer keeps only a weak
		// reference
		Gauge.builder(BUDGET_DEFINITIONS, cache, cached)
			.description("Budget definitions built at run time and cached, by their application-given identity")
			.register(registry);
		Gauge.builder(BUDGET_DEFINITIONS_MAX, () -> max)
			.description("The bound of the budget definitions cached (limiter.budget-definitions.max-cached)")
			.register(registry);
		FunctionCounter.builder(BUDGET_DEFINITIONS_EVICTED, cache, evicted)
			.description("Budget definitions forgotten to keep the cache within limiter.budget-definitions.max-cached")
			.register(registry);
	}

	/** The window with the smallest share left. */
	private static BoundVerdict nearestToLimit(Decision decision) {
		BoundVerdict nearest = null;
		for (BoundVerdict verdict : decision.verdicts()) {
			if (verdict.concurrency() || verdict.limit() <= 0) {
				continue;
			}
			if (nearest == null || verdict.remaining() * nearest.limit() < nearest.remaining() * verdict.limit()) {
				nearest = verdict;
			}
		}
		return nearest;
	}

	private record RequestTags(String budget, String outcome, String reason, String mode) {
	}

	private record NearLimitTags(String budget, String window) {
	}

}
