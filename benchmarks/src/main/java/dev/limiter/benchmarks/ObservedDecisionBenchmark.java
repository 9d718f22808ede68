package dev.limiter.benchmarks;

import java.time.Duration;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.observation.ObservedDecisions;
import dev.limiter.servlet.DecisionFacts;
import dev.limiter.servlet.InstrumentedDecision;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What the Observation of each decision costs: one in-memory decision on a hot key,
 * followed as the filter follows it ({@code start}, the store call, {@code decided}),
 * with no instrumentation at all ({@code none}), with an {@code ObservationRegistry} that
 * has no handler ({@code noop}: nothing may be built), and with Micrometer's meter
 * handler ({@code meters}: a timer per decision, as Spring Boot's actuator registers it).
 */
public class ObservedDecisionBenchmark extends ThroughputBenchmark {

	@Param({ "none", "noop", "meters" })
	public String registry;

	private Budget budget;

	private RateLimitStore store;

	private ObservedDecisions observed;

	private DecisionFacts facts;

	@Setup(Level.Trial)
	public void setUp() {
		budget = Budget.builder("standard")
			.window("minute", 1_000_000_000L, Duration.ofMinutes(1))
			.window("hour", 60_000_000_000L, Duration.ofHours(1))
			.build();
		store = new OverLimitRememberingStore(RateLimitStores.inMemory(1_000));
		ObservationRegistry observations = ObservationRegistry.create();
		if (registry.equals("meters")) {
			observations.observationConfig()
				.observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
		}
		observed = registry.equals("none") ? null : new ObservedDecisions(observations, null);
		facts = new DecisionFacts(null, new RoutePolicy("/links/{id}", "standard", false, false, null), budget,
				CallerKeys.keys(1)[0], null, store.name());
	}

	@Benchmark
	public boolean decision() {
		InstrumentedDecision followed = (observed != null) ? observed.start(facts) : null;
		Decision decision = (followed != null) ? followed.storeCall(this::take) : take();
		if (followed != null) {
			followed.decided(decision, false);
		}
		return decision.allowed();
	}

	private Decision take() {
		return store.take(budget, facts.key(), 1, false, System.currentTimeMillis());
	}

}
