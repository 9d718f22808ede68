package dev.limiter.servlet;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.routes.RouteSource;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.MutableClock;
import dev.limiter.test.web.RecordingStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quota endpoint over a real port: what it shows is what the next counted request
 * sees, reading it spends nothing, a caller sees its own counters only, it is bounded per
 * caller and refuses an anonymous caller. Time is fixed by the limiter clock.
 */
@SpringBootTest(classes = FilterTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.enabled=false", "limiter.quota-endpoint.path=/rate-limit" })
class QuotaEndpointHttpTests {

	private final ObjectMapper json = new ObjectMapper();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	private RouteInventoryCheck inventory;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	private HttpSupport http;

	@BeforeEach
	void freshCounters() {
		store.clear();
		clock.set(FilterTestApplication.NOW);
		http = new HttpSupport(port);
	}

	@Test
	void quotaWhenReadShouldBeNoStoreJsonOfTheDefaultBudgetsBounds() throws Exception {
		HttpResponse<String> quota = http.get("/rate-limit", "good-alice");
		assertThat(quota.statusCode()).isEqualTo(200);
		assertThat(quota.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(quota.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		JsonNode minute = bound(quota, "standard", "minute");
		assertThat(minute.get("unit").asText()).isEqualTo("requests");
		assertThat(minute.get("limit").asLong()).isEqualTo(600);
		assertThat(minute.get("remaining").asLong()).isEqualTo(600);
		assertThat(minute.get("reset").asText()).isEqualTo("2030-01-01T00:01:00Z");
		assertThat(minute.get("algorithm").asText()).isEqualTo("fixed-window");
		assertThat(minute.get("concurrency").asBoolean()).isFalse();
		JsonNode concurrency = bound(quota, "standard", "concurrency");
		assertThat(concurrency.get("limit").asLong()).isEqualTo(10);
		assertThat(concurrency.get("algorithm").asText()).isEqualTo("concurrency");
		assertThat(concurrency.get("concurrency").asBoolean()).isTrue();
	}

	@Test
	void quotaRemainingWhenFollowedByACountedRequestShouldBeItsRemainingPlusOne() throws Exception {
		http.get("/hello", "good-alice");
		long shown = bound(http.get("/rate-limit", "good-alice"), "standard", "minute").get("remaining").asLong();
		HttpResponse<String> next = http.get("/hello", "good-alice");
		assertThat(next.statusCode()).isEqualTo(200);
		long remaining = Long.parseLong(next.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
		assertThat(shown).isEqualTo(599).isEqualTo(remaining + 1);
	}

	@Test
	void quotaWhenReadSeveralTimesShouldSpendNothing() throws Exception {
		http.get("/hello", "good-alice");
		for (int i = 0; i < 5; i++) {
			assertThat(bound(http.get("/rate-limit", "good-alice"), "standard", "minute").get("remaining").asLong())
				.isEqualTo(599);
		}
		assertThat(http.get("/hello", "good-alice").headers().firstValue("X-RateLimit-Remaining")).hasValue("598");
	}

	@Test
	void quotaOfAnotherCallerShouldShowItsOwnCountersOnly() throws Exception {
		for (int i = 0; i < 3; i++) {
			http.get("/hello", "good-alice");
		}
		assertThat(bound(http.get("/rate-limit", "good-bob"), "standard", "minute").get("remaining").asLong())
			.isEqualTo(600);
		assertThat(bound(http.get("/rate-limit", "good-alice"), "standard", "minute").get("remaining").asLong())
			.isEqualTo(597);
	}

	@Test
	void quotaWhenReadMoreThanItsLimitInAMinuteShouldBeRefusedWithTheUsualContract() throws Exception {
		for (int i = 0; i < 60; i++) {
			assertThat(http.get("/rate-limit", "good-alice").statusCode()).as("call %d", i + 1).isEqualTo(200);
		}
		HttpResponse<String> refused = http.get("/rate-limit", "good-alice");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("42");
		assertThat(refused.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(json.readTree(refused.body()).get("budget").asText()).isEqualTo("quota-endpoint");
		assertThat(http.get("/rate-limit", "good-bob").statusCode()).isEqualTo(200);
		assertThat(http.get("/hello", "good-alice").statusCode()).isEqualTo(200);
	}

	@Test
	void quotaWhenAnonymousShouldBeRefusedWithAProblem() throws Exception {
		HttpResponse<String> refused = http.get("/rate-limit", null);
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(json.readTree(refused.body()).get("status").asInt()).isEqualTo(401);
		assertThat(store.keys()).isEmpty();
	}

	@Test
	void quotaPathWhenSetShouldBeListedInTheRouteInventoryOnItsOwnBudget() {
		assertThat(inventory.inventory().entries()).anySatisfy((entry) -> {
			assertThat(entry.pattern()).isEqualTo("/rate-limit");
			assertThat(entry.methods()).containsExactly("GET");
			assertThat(entry.budget()).isEqualTo("quota-endpoint");
			assertThat(entry.source()).isEqualTo(RouteSource.BUILT_IN);
		});
	}

	private JsonNode bound(HttpResponse<String> quota, String budget, String window) throws Exception {
		assertThat(quota.statusCode()).isEqualTo(200);
		for (JsonNode counted : json.readTree(quota.body()).get("budgets")) {
			if (counted.get("budget").asText().equals(budget)) {
				for (JsonNode bound : counted.get("bounds")) {
					if (bound.get("name").asText().equals(window)) {
						return bound;
					}
				}
			}
		}
		throw new AssertionError("no " + budget + "/" + window + " in " + quota.body());
	}

}
