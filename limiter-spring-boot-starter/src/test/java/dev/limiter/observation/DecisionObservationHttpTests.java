package dev.limiter.observation;

import java.util.ArrayList;
import java.util.List;

import dev.limiter.core.Sha256;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RoutesHttpTest;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over a real port with the application's {@code ObservationRegistry}: one
 * {@code limiter.decision} per request the limiter handles, a child of the request's own
 * HTTP observation, with the outcome and the refusing window.
 */
@RoutesHttpTest
@Import(DecisionObservationHttpTests.Registry.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.BEFORE_CLASS)
class DecisionObservationHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private TestObservationRegistry registry;

	@Test
	void requestsWhenDecidedShouldEachBeOneObservationWithItsOutcome() throws Exception {
		registry.clear();
		HttpSupport http = new HttpSupport(port);
		for (int i = 0; i < 3; i++) {
			http.get("/plain/method", "good-observed"); // tight, 2 a minute
		}
		http.get("/plain/exempt", null);

		assertThat(registry).hasNumberOfObservationsWithNameEqualTo("limiter.decision", 4);
		assertThat(registry).hasHandledContextsThatSatisfy((contexts) -> {
			List<Observation.Context> decisions = contexts.stream()
				.filter((context) -> "limiter.decision".equals(context.getName()))
				.toList();
			assertThat(decisions)
				.extracting((context) -> context.getLowCardinalityKeyValue("limiter.outcome").getValue())
				.containsExactly("admitted", "admitted", "refused", "exempt");
			Observation.Context refused = decisions.get(2);
			assertThat(refused.getLowCardinalityKeyValue("limiter.window").getValue()).isEqualTo("minute");
			assertThat(refused.getLowCardinalityKeyValue("limiter.budget").getValue()).isEqualTo("tight");
			assertThat(refused.getLowCardinalityKeyValue("limiter.route").getValue()).isEqualTo("/plain/method");
			assertThat(refused.getHighCardinalityKeyValue("limiter.key").getValue())
				.isEqualTo("t:" + Sha256.base64Url("good-observed"));
			assertThat(decisions)
				.allSatisfy((context) -> assertThat(ancestors(context)).as("under the HTTP server's observation")
					.contains("http.server.requests"));
		});
	}

	private static List<String> ancestors(Observation.ContextView context) {
		List<String> names = new ArrayList<>();
		for (ObservationView parent = context.getParentObservation(); parent != null; parent = parent.getContextView()
			.getParentObservation()) {
			names.add(parent.getContextView().getName());
		}
		return names;
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Registry {

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

	}

}
