package dev.limiter.autoconfigure.actuate;

import java.net.http.HttpResponse;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.Sha256;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RoutesHttpTest;
import dev.limiter.test.web.RoutesTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/limiter/refused}: the callers this instance refused most, with their
 * principal's name, budget and refusals, and the path of their live counters.
 */
@RoutesHttpTest(properties = { RoutesTestApplication.PER_ROUTE_SCOPE,
		"management.endpoints.web.exposure.include=limiter,health", "limiter.routes[0].pattern=/actuator/**",
		"limiter.routes[0].exempt=true", "limiter.routes[0].reason=operations" })
class RefusedCallersHttpTests {

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Test
	void refusedWhenACallerIsRefusedShouldListItWithItsCountersPath() throws Exception {
		HttpSupport http = new HttpSupport(port);
		for (int i = 0; i < 5; i++) {
			http.get("/plain/method", "good-hitter"); // tight, 2 a minute: 3 refusals
		}
		String keyHash = "t:" + Sha256.base64Url("good-hitter");

		HttpResponse<String> response = http.get("/actuator/limiter/refused", null);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json.readTree(response.body());
		assertThat(body.get("windowMinutes").asInt()).isEqualTo(5);
		assertThat(body.get("maxError").asLong()).isGreaterThanOrEqualTo(0);
		JsonNode hitter = null;
		for (JsonNode caller : body.get("callers")) {
			if (caller.get("key").asText().equals(keyHash)) {
				hitter = caller;
			}
		}
		assertThat(hitter).as(response.body()).isNotNull();
		assertThat(hitter.get("refusals").asLong()).isEqualTo(3);
		assertThat(hitter.get("principal").asText()).isEqualTo("hitter");
		assertThat(hitter.get("budget").asText()).isEqualTo("tight");
		// the test clock, which other tests of this context move on
		assertThat(Instant.parse(hitter.get("lastRefusal").asText()))
			.isAfterOrEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
		assertThat(response.body()).doesNotContain("good-hitter");

		HttpResponse<String> counters = http.get("/actuator/limiter/" + hitter.get("lookup").asText(), null);
		assertThat(counters.statusCode()).isEqualTo(200);
		assertThat(json.readTree(counters.body()).get("counters").get(0).get("bounds").get(0).get("remaining").asLong())
			.isZero();
		assertThat(http.get("/actuator/limiter/unknown-section", null).statusCode()).isEqualTo(404);
	}

}
