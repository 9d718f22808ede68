package dev.limiter.observation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.core.Window;
import dev.limiter.servlet.DecisionFacts;
import dev.limiter.servlet.InstrumentedDecision;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One observation per decision with the documented key values for each outcome, the
 * refusal's event, the store's child only for a store in another process, the work after
 * the response as children of the decision, and nothing at all on a no-op registry.
 */
class ObservedDecisionsTests {

	private static final long NOW = 1_000_000;

	private final Budget budget = Budget.builder("standard")
		.window("minute", 10, Duration.ofMinutes(1))
		.window(Window.tokenBucket("burst", 5, Duration.ofSeconds(10)))
		.build();

	private final RoutePolicy route = new RoutePolicy("/links/{id}", "standard", false, false, null);

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final ObservedDecisions observed = new ObservedDecisions(registry, null);

	private final List<Observation.Event> events = new ArrayList<>();

	ObservedDecisionsTests() {
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public void onEvent(Observation.Event event, Observation.Context context) {
				events.add(event);
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

		});
	}

	@Test
	void decisionWhenAdmittedShouldBeOneObservationWithTheDocumentedKeyValues() {
		decide("memory", admitted(), false);
		assertThat(registry).hasNumberOfObservationsEqualTo(1)
			.hasObservationWithNameEqualTo("limiter.decision")
			.that()
			.hasContextualNameEqualTo("limiter decision")
			.hasLowCardinalityKeyValue("limiter.budget", "standard")
			.hasLowCardinalityKeyValue("limiter.route", "/links/{id}")
			.hasLowCardinalityKeyValue("limiter.outcome", "admitted")
			.hasLowCardinalityKeyValue("limiter.store", "memory")
			.hasLowCardinalityKeyValue("limiter.algorithm", "mixed")
			.hasLowCardinalityKeyValue("limiter.window", "none")
			.hasHighCardinalityKeyValue("limiter.key", "t:abc")
			.doesNotHaveHighCardinalityKeyValueWithKey("limiter.retry-after")
			.hasBeenStarted()
			.hasBeenStopped();
		assertThat(events).isEmpty();
	}

	@Test
	void decisionWhenRefusedShouldNameTheWindowItsAlgorithmAndTheRetryAfter() {
		decide("memory", refused(), false);
		assertThat(registry).hasSingleObservationThat()
			.hasLowCardinalityKeyValue("limiter.outcome", "refused")
			.hasLowCardinalityKeyValue("limiter.window", "burst")
			.hasLowCardinalityKeyValue("limiter.algorithm", "token-bucket")
			.hasHighCardinalityKeyValue("limiter.retry-after", "7");
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getName()).isEqualTo("limiter.refused");
			assertThat(event.getContextualName()).contains("window=burst").contains("retry-after=7s");
		});
	}

	@Test
	void decisionWhenShadowRefusedDegradedOrExemptShouldSaySo() {
		decide("memory", refused(), true);
		decide("memory", admitted().asDegraded(), false);
		observed.exempt(new MockHttpServletRequest(), new RoutePolicy("/health", null, false, true, "probe"));
		assertThat(registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 3);
		assertThat(registry).hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
			.extracting((context) -> context.getLowCardinalityKeyValue("limiter.outcome").getValue())
			.containsExactly("shadow-refused", "degraded", "exempt"));
		assertThat(registry).hasHandledContextsThatSatisfy((contexts) -> {
			Observation.Context exempt = contexts.get(2);
			assertThat(exempt.getLowCardinalityKeyValues()).extracting(KeyValue::getKey, KeyValue::getValue)
				.contains(org.assertj.core.groups.Tuple.tuple("limiter.budget", "none"),
						org.assertj.core.groups.Tuple.tuple("limiter.store", "none"),
						org.assertj.core.groups.Tuple.tuple("limiter.route", "/health"));
			assertThat(exempt.getHighCardinalityKeyValues()).isEmpty();
		});
	}

	@Test
	void decisionWhenTheStoreIsUnavailableShouldEndWithTheError() {
		InstrumentedDecision followed = observed.start(facts("redis"));
		StoreUnavailableException failure = new StoreUnavailableException("standard", 1000,
				new IllegalStateException());
		followed.unavailable(failure);
		assertThat(registry).hasSingleObservationThat()
			.hasLowCardinalityKeyValue("limiter.outcome", "unavailable")
			.hasError(failure);
	}

	@Test
	void storeCallWhenTheStoreIsAnotherProcessShouldBeAChildOfTheDecision() {
		decide("redis", admitted(), false);
		assertThat(registry).hasNumberOfObservationsEqualTo(2)
			.hasObservationWithNameEqualTo("limiter.store")
			.that()
			.hasContextualNameEqualTo("limiter store")
			.hasLowCardinalityKeyValue("limiter.store", "redis")
			.hasLowCardinalityKeyValue("limiter.budget", "standard")
			.hasParentObservation()
			.hasBeenStopped();
		assertThat(registry).hasHandledContextsThatSatisfy(
				(contexts) -> assertThat(contexts.get(1).getParentObservation().getContextView().getName())
					.isEqualTo("limiter.decision"));
	}

	@Test
	void storeCallWhenTheStoreIsInProcessShouldNotBeObservedApart() {
		decide("memory", admitted(), false);
		assertThat(registry).hasNumberOfObservationsEqualTo(1);
	}

	@Test
	void workAfterTheResponseShouldBeChildrenOfTheRequestsObservationEachWithItsOutcome() {
		Observation request = Observation.start("request", registry);
		InstrumentedDecision followed;
		try (Observation.Scope scope = request.openScope()) {
			followed = decide("memory", admitted(), false);
			followed.afterResponse(InstrumentedDecision.SETTLEMENT, "standard").done(null);
		}
		followed.afterResponse(InstrumentedDecision.LEASE_RELEASE, "standard").done(new IllegalStateException("x"));
		request.stop();
		assertThat(registry).hasObservationWithNameEqualTo("limiter.settlement")
			.that()
			.hasLowCardinalityKeyValue("limiter.outcome", "settled")
			.hasParentObservationEqualTo(request)
			.hasBeenStopped();
		assertThat(registry).hasObservationWithNameEqualTo("limiter.lease.release")
			.that()
			.hasLowCardinalityKeyValue("limiter.outcome", "failed")
			.hasError()
			.hasParentObservationEqualTo(request);
		assertThat(registry).hasObservationWithNameEqualTo("limiter.decision")
			.that()
			.hasParentObservationEqualTo(request);
	}

	@Test
	void workAfterTheResponseWhenTheDecisionHadNoParentShouldBeItsChildren() {
		InstrumentedDecision followed = decide("memory", admitted(), false);
		followed.afterResponse(InstrumentedDecision.SETTLEMENT, "standard").done(null);
		assertThat(registry).hasObservationWithNameEqualTo("limiter.settlement").that().hasParentObservation();
		assertThat(registry).hasHandledContextsThatSatisfy(
				(contexts) -> assertThat(contexts.get(1).getParentObservation().getContextView().getName())
					.isEqualTo("limiter.decision"));
	}

	@Test
	void conventionWhenTheApplicationGivesOneShouldNameTheDecision() {
		ObservedDecisions custom = new ObservedDecisions(registry, new DefaultLimiterDecisionObservationConvention() {

			@Override
			public String getName() {
				return "my.limiter";
			}

		});
		custom.start(facts("memory")).decided(admitted(), false);
		assertThat(registry).hasSingleObservationThat().hasNameEqualTo("my.limiter");
	}

	@Test
	void startWhenTheConventionFailsShouldLetTheRequestGoOnUnobserved() {
		ObservedDecisions failing = new ObservedDecisions(registry, new DefaultLimiterDecisionObservationConvention() {

			@Override
			public KeyValues getLowCardinalityKeyValues(LimiterDecisionContext context) {
				throw new IllegalStateException("broken convention");
			}

		});
		assertThat(failing.start(facts("memory"))).isNull();
	}

	@Test
	void startWhenTheRegistryIsANoopShouldMakeNothing() {
		ObservedDecisions noop = new ObservedDecisions(ObservationRegistry.NOOP, null);
		assertThat(noop.start(facts("redis"))).isNull();
		ObservationRegistry withoutHandlers = ObservationRegistry.create();
		assertThat(withoutHandlers.isNoop()).isTrue();
		assertThat(new ObservedDecisions(withoutHandlers, null).start(facts("redis"))).isNull();
	}

	private InstrumentedDecision decide(String store, Decision decision, boolean shadowRefused) {
		InstrumentedDecision followed = observed.start(facts(store));
		Decision made = followed.storeCall(() -> decision);
		followed.decided(made, shadowRefused);
		return followed;
	}

	private DecisionFacts facts(String store) {
		return new DecisionFacts(new MockHttpServletRequest(), route, budget, "t:abc", null, store);
	}

	private Decision admitted() {
		return Decision.of("standard", NOW,
				List.of(BoundVerdict.window(budget.windows().get(0), 1, NOW + 60_000, false),
						BoundVerdict.window(budget.windows().get(1), 1, NOW + 2_000, false)),
				null);
	}

	private Decision refused() {
		return Decision.of("standard", NOW,
				List.of(BoundVerdict.window(budget.windows().get(0), 3, NOW + 60_000, false),
						BoundVerdict.window(budget.windows().get(1), 5, NOW + 7_000, true)),
				null);
	}

}
