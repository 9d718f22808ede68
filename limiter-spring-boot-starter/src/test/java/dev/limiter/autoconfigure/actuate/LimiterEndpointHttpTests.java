package dev.limiter.autoconfigure.actuate;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.core.Sha256;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import dev.limiter.test.web.RoutesTestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter actuator endpoint over real HTTP, exposed the way an application exposes
 * it.
 */
@RoutesHttpTest(properties = { RoutesTestApplication.PER_ROUTE_SCOPE,
		"management.endpoints.web.exposure.include=limiter,health", "limiter.routes[0].pattern=/actuator/**",
		"limiter.routes[0].exempt=true", "limiter.routes[0].reason=operations" })
class LimiterEndpointHttpTests {

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	private HttpSupport http;

	@BeforeEach
	void setUp() {
		store.clear();
		http = new HttpSupport(port);
	}

	@Test
	void endpointWhenReadShouldDescribeBudgetsInventoryStoreAndTotals() throws Exception {
		http.get("/plain/method", "good-totals");
		http.get("/plain/method", "good-totals");
		http.get("/plain/method", "good-totals");
		http.get("/plain/method", "good-totals");

		HttpResponse<String> response = http.get("/actuator/limiter", null);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = json.readTree(response.body());
		assertThat(body.get("store").asText()).isEqualTo("recording");
		assertThat(body.get("mode").asText()).isEqualTo("authoritative");
		assertThat(body.get("enforcement").asText()).isEqualTo("enforce");
		assertThat(body.get("defaultBudget").asText()).isEqualTo("standard");
		JsonNode tight = body.get("budgets").get("tight");
		assertThat(tight.get("windows").get(0).get("name").asText()).isEqualTo("minute");
		assertThat(tight.get("windows").get(0).get("limit").asLong()).isEqualTo(2);
		assertThat(tight.get("windows").get(0).get("durationSeconds").asDouble()).isEqualTo(60.0);
		assertThat(tight.get("scope").asText()).isEqualTo("key");
		assertThat(body.get("budgets").get("per-route").get("scope").asText()).isEqualTo("route");
		assertThat(body.get("budgets").get("standard").get("concurrency").get("max").asInt()).isEqualTo(10);
		assertThat(tight.get("totals").get("requests").asLong()).isGreaterThanOrEqualTo(4);
		assertThat(tight.get("totals").get("refused").asLong()).isGreaterThanOrEqualTo(2);
		assertThat(tight.get("totals").get("refusalPercentage").asDouble()).isBetween(0.0, 100.0);

		JsonNode route = null;
		for (JsonNode entry : body.get("routes")) {
			if (entry.get("pattern").asText().equals("/plain/method")) {
				route = entry;
			}
		}
		assertThat(route).isNotNull();
		assertThat(route.get("budget").asText()).isEqualTo("tight");
		assertThat(route.get("source").asText()).isEqualTo("method annotation");
		assertThat(route.get("handler").asText()).isEqualTo("RoutesTestApplication.PlainController#method");
		assertThat(route.get("methods").get(0).asText()).isEqualTo("GET");
		assertThat(body.get("deadRules").isEmpty()).isTrue();
		assertThat(response.body()).doesNotContain("good-totals");
	}

	@Test
	void inventoryWhenReadShouldListTheKeyOperationsUnderTheDocumentedPathThatAnswers() throws Exception {
		JsonNode body = json.readTree(http.get("/actuator/limiter", null).body());
		List<String> keyRoutes = new ArrayList<>();
		for (JsonNode entry : body.get("routes")) {
			if (entry.get("pattern").asText().startsWith("/actuator/limiter/")) {
				keyRoutes.add(entry.get("methods").get(0).asText() + " " + entry.get("pattern").asText());
			}
		}
		assertThat(keyRoutes).containsExactlyInAnyOrder("GET /actuator/limiter/keys/{keyHash}",
				"DELETE /actuator/limiter/keys/{keyHash}", "GET /actuator/limiter/{section}");
		assertThat(http.get("/actuator/limiter/keys/a:127.0.0.1", null).statusCode()).isEqualTo(200);
	}

	@Test
	void keyWhenReadThenDeletedShouldNotCountThenAdmitTheNextRequest() throws Exception {
		String keyHash = "t:" + Sha256.base64Url("good-erin");
		assertThat(http.get("/plain/method", "good-erin").statusCode()).isEqualTo(200);

		for (int i = 0; i < 3; i++) {
			HttpResponse<String> read = http.get("/actuator/limiter/keys/" + keyHash + "?budget=tight", null);
			assertThat(read.statusCode()).isEqualTo(200);
			JsonNode body = json.readTree(read.body());
			assertThat(body.get("key").asText()).isEqualTo(keyHash);
			JsonNode minute = body.get("counters").get(0).get("bounds").get(0);
			assertThat(body.get("counters").get(0).get("budget").asText()).isEqualTo("tight");
			assertThat(minute.get("name").asText()).isEqualTo("minute");
			assertThat(minute.get("limit").asLong()).isEqualTo(2);
			assertThat(minute.get("remaining").asLong()).isEqualTo(1);
			assertThat(minute.get("resetAt").asText()).isEqualTo("2030-01-01T00:01:00Z");
		}
		assertThat(store.keys()).hasSize(1);

		assertThat(http.get("/plain/method", "good-erin").statusCode()).isEqualTo(200);
		assertThat(http.get("/plain/method", "good-erin").statusCode()).isEqualTo(429);

		HttpResponse<String> reset = http.send("DELETE", "/actuator/limiter/keys/" + keyHash + "?budget=tight", null);
		assertThat(reset.statusCode()).isEqualTo(200);
		assertThat(json.readTree(reset.body()).get("budgets").get(0).asText()).isEqualTo("tight");
		assertThat(http.get("/plain/method", "good-erin").statusCode()).isEqualTo(200);
	}

	@Test
	void keyWhenReadWithoutABudgetShouldShowEveryBudgetAndTheRoutesOfRouteScopedOnes() throws Exception {
		String keyHash = "t:" + Sha256.base64Url("good-fay");
		http.get("/links/7", "good-fay");
		JsonNode body = json.readTree(http.get("/actuator/limiter/keys/" + keyHash, null).body());
		JsonNode perRoute = null;
		for (JsonNode counters : body.get("counters")) {
			if (counters.get("budget").asText().equals("per-route")) {
				perRoute = counters;
			}
		}
		assertThat(perRoute).isNotNull();
		assertThat(perRoute.get("route").asText()).isEqualTo("/links/{id}");
		assertThat(perRoute.get("bounds").get(0).get("remaining").asLong()).isEqualTo(2);
	}

	@Test
	void endpointWhenTheRequestIsBadShouldAnswerNoStoreForBrowsersAndCdns() throws Exception {
		HttpResponse<String> malformed = http.get("/actuator/limiter/keys/good-gus", null);
		assertThat(malformed.statusCode()).isEqualTo(400);
		assertThat(malformed.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(malformed.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
	}

	@Test
	void endpointWhenTheBudgetIsUnknownShouldAnswerA400ThatIsNoStore() throws Exception {
		String keyHash = "t:" + dev.limiter.core.Sha256.base64Url("good-nostore");
		HttpResponse<String> unknown = http.get("/actuator/limiter/keys/" + keyHash + "?budget=nope", null);
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(unknown.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(unknown.headers().firstValue("CDN-Cache-Control")).hasValue("no-store");
	}

	@Test
	void endpointWhenTheInputIsBadShouldAnswerA400NeverA500() throws Exception {
		String keyHash = "t:" + Sha256.base64Url("good-gus");
		assertThat(http.get("/actuator/limiter/keys/good-gus", null).statusCode()).isEqualTo(400);
		assertThat(http.get("/actuator/limiter/keys/t:short", null).statusCode()).isEqualTo(400);
		assertThat(http.get("/actuator/limiter/keys/" + keyHash + "?budget=nope", null).statusCode()).isEqualTo(400);
		assertThat(http.send("DELETE", "/actuator/limiter/keys/" + keyHash + "?budget=nope", null).statusCode())
			.isEqualTo(400);
		assertThat(http.send("DELETE", "/actuator/limiter/keys/sp_raw_token", null).statusCode()).isEqualTo(400);
		assertThat(http.get("/actuator/limiter/other/" + keyHash, null).statusCode()).isEqualTo(404);
		HttpResponse<String> malformed = http.get("/actuator/limiter/keys/good-gus", null);
		assertThat(json.readTree(malformed.body()).get("error").asText()).isEqualTo("malformed_key_hash");
		assertThat(malformed.body()).doesNotContain("good-gus");
		assertThat(http.get("/actuator/limiter/keys/" + keyHash + "?budget=%3Cscript%3E", null).body())
			.doesNotContain("script");
	}

}
