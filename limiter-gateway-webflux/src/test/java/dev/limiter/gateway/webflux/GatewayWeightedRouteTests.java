package dev.limiter.gateway.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route in a {@code Weight} group: the gateway draws the weights after the limiter's
 * filter asked for the request's route, so the answer the limiter got then (no route)
 * must not be the one the gateway routes by.
 */
@ExtendWith(BlockHoundExtension.class)
class GatewayWeightedRouteTests {

	private static CountingBackend backend;

	private static ConfigurableApplicationContext gateway;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@BeforeAll
	static void startTheBackendAndTheGateway() throws Exception {
		backend = CountingBackend.start();
		String at = "spring.cloud.gateway.server.webflux.routes[0].";
		gateway = GatewayApplication.run(List.of(at + "id=weighted", at + "uri=" + backend.uri(),
				at + "predicates[0]=Path=/weighted/**", at + "predicates[1]=Weight=group1, 1"));
	}

	@AfterAll
	static void stopEverything() {
		if (gateway != null) {
			gateway.close();
		}
		if (backend != null) {
			backend.close();
		}
	}

	@Test
	void requestOnAWeightedRouteShouldBeRoutedByTheWeightsTheGatewayDraws() throws Exception {
		HttpResponse<String> response = http.send(HttpRequest
			.newBuilder(URI.create("http://localhost:" + GatewayApplication.port(gateway) + "/weighted/items"))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("backend /weighted/items");
	}

}
