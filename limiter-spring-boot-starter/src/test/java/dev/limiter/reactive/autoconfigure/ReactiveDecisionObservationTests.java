package dev.limiter.reactive.autoconfigure;

import java.security.Principal;
import java.time.Instant;
import java.util.List;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.observation.LimiterObservationAutoConfiguration;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.web.MutableClock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Observation of each reactive decision: {@code limiter.decision} with the servlet
 * filter's name and low-cardinality key values, one per request, admitted or refused,
 * parented to the request's observation that WebFlux keeps in the Reactor context; made
 * without blocking (BlockHound).
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveDecisionObservationTests {

	private static final WebFilterChain OK = (exchange) -> {
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		return exchange.getResponse().setComplete();
	};

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class,
				LimiterObservationAutoConfiguration.class, LimiterReactiveAutoConfiguration.class))
		.withBean(ObservationRegistry.class, TestObservationRegistry::create)
		.withBean(LimiterAutoConfiguration.CLOCK_BEAN_NAME, MutableClock.class,
				() -> new MutableClock(Instant.parse("2030-01-01T00:00:18Z")))
		.withPropertyValues("limiter.budgets.standard.windows.minute.limit=1");

	@Test
	void reactiveDecisionsWhenAdmittedThenRefusedShouldEachMakeOneObservationWithTheServletsKeyValues() {
		runner.run((context) -> {
			TestObservationRegistry registry = (TestObservationRegistry) context.getBean(ObservationRegistry.class);

			assertThat(send(context, null).getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 1)
				.hasObservationWithNameEqualTo("limiter.decision")
				.that()
				.hasBeenStarted()
				.hasBeenStopped()
				.hasLowCardinalityKeyValue("limiter.outcome", "admitted")
				.hasLowCardinalityKeyValue("limiter.budget", "standard")
				.hasLowCardinalityKeyValue("limiter.store", "memory")
				.hasLowCardinalityKeyValue("limiter.algorithm", "fixed-window")
				.hasLowCardinalityKeyValue("limiter.window", "none")
				.hasLowCardinalityKeyValueWithKey("limiter.route")
				.hasHighCardinalityKeyValueWithKey("limiter.key");

			assertThat(send(context, null).getResponse().getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
			assertThat(registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 2);
			assertThat(registry).hasHandledContextsThatSatisfy((contexts) -> {
				List<Observation.Context> refused = contexts.stream()
					.filter((observed) -> "limiter.decision".equals(observed.getName()))
					.filter((observed) -> "refused"
						.equals(observed.getLowCardinalityKeyValue("limiter.outcome").getValue()))
					.toList();
				assertThat(refused).singleElement().satisfies((decision) -> {
					assertThat(decision.getLowCardinalityKeyValue("limiter.window").getValue()).isEqualTo("minute");
					assertThat(decision.getLowCardinalityKeyValue("limiter.budget").getValue()).isEqualTo("standard");
					assertThat(decision.getLowCardinalityKeyValue("limiter.store").getValue()).isEqualTo("memory");
				});
			});
		});
	}

	@Test
	void reactiveDecisionWhenTheRequestHasAnObservationInTheReactorContextShouldBeItsChild() {
		runner.run((context) -> {
			TestObservationRegistry registry = (TestObservationRegistry) context.getBean(ObservationRegistry.class);
			Observation request = Observation.start("http.server.requests", registry);

			send(context, request);
			request.stop();

			assertThat(registry).hasHandledContextsThatSatisfy((contexts) -> {
				Observation.Context decision = contexts.stream()
					.filter((observed) -> "limiter.decision".equals(observed.getName()))
					.findFirst()
					.orElseThrow();
				assertThat(decision.getParentObservation()).isSameAs(request);
			});
		});
	}

	private static MockServerWebExchange send(AssertableReactiveWebApplicationContext context, Observation parent) {
		Principal user = () -> "alice";
		MockServerWebExchange exchange = MockServerWebExchange.builder(MockServerHttpRequest.get("/documents"))
			.principal(user)
			.build();
		ReactiveRateLimitFilter filter = context.getBean(ReactiveRateLimitFilter.class);
		if (parent != null) {
			filter.filter(exchange, OK)
				.contextWrite((reactor) -> reactor.put(ObservationThreadLocalAccessor.KEY, parent))
				.block();
		}
		else {
			filter.filter(exchange, OK).block();
		}
		return exchange;
	}

}
