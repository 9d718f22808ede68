package dev.limiter.routes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.limiter.core.Sha256;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import dev.limiter.test.web.RoutesTestApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documented precedence: a limiter.routes rule > @RateLimited/@RateLimitExempt on the
 * method > on the class > default-budget, checked three ways for every combination: the
 * resolver, the start-up inventory, and the counter a real request spends.
 */
@RoutesHttpTest(properties = { RoutesTestApplication.PER_ROUTE_SCOPE, "limiter.routes[0].pattern=/plain/yaml",
		"limiter.routes[0].budget=loose", "limiter.routes[1].pattern=/internal/yaml", "limiter.routes[1].budget=tight",
		"limiter.routes[1].expensive=true" })
class RoutePrecedenceTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	private RouteResolver routes;

	@Autowired
	private RouteInventoryCheck inventory;

	@BeforeEach
	void freshCounters() {
		store.clear();
	}

	@ParameterizedTest(name = "{0} -> {1} (expensive {2}, exempt {3}) from {4}")
	@CsvSource({
			// path, budget, expensive, exempt, source
			"/plain,            standard, false,     false,  default",
			"/plain/method,     tight,    false,     false,  method annotation",
			"/plain/exempt,     ,         false,     true,   method annotation",
			"/plain/yaml,       loose,    false,     false,  rule",
			"/class,            loose,    false,     false,  class annotation",
			"/class/method,     tight,    true,      false,  method annotation",
			"/class/exempt,     ,         false,     true,   method annotation",
			"/internal,         ,         false,     true,   class annotation",
			"/internal/limited, tight,    false,     false,  method annotation",
			"/internal/yaml,    tight,    true,      false,  rule", })
	void routeWhenRulesAndAnnotationsCombineShouldResolveAsDocumented(String path, String budget, boolean expensive,
			boolean exempt, String source) throws Exception {
		RoutePolicy policy = routes.resolve(new MockHttpServletRequest("GET", path));
		assertThat(policy.exempt()).isEqualTo(exempt);
		assertThat(policy.expensive()).isEqualTo(expensive);
		assertThat(policy.budget() == null ? (exempt ? null : "standard") : policy.budget()).isEqualTo(budget);

		RouteInventory.Entry entry = inventory.inventory()
			.entries()
			.stream()
			.filter(e -> e.pattern().equals(path))
			.findFirst()
			.orElseThrow();
		assertThat(entry.budget()).isEqualTo(budget);
		assertThat(entry.exempt()).isEqualTo(exempt);
		assertThat(entry.expensive()).isEqualTo(expensive);
		assertThat(entry.source().label()).isEqualTo(source);

		assertThat(send(path, "good-alice").statusCode()).isEqualTo(200);
		if (exempt) {
			assertThat(store.keys()).isEmpty();
		}
		else {
			assertThat(store.keys()).containsExactly(budget + "/t:" + Sha256.base64Url("good-alice"));
		}
	}

	@Test
	void routeScopeWhenTwoIdsMatchOnePatternShouldShareOneCounter() throws Exception {
		assertThat(send("/links/1", "good-bob").statusCode()).isEqualTo(200);
		assertThat(send("/links/2", "good-bob").statusCode()).isEqualTo(200);
		assertThat(send("/links/3", "good-bob").statusCode()).isEqualTo(200);
		assertThat(send("/links/4", "good-bob").statusCode()).isEqualTo(429);
		// Another route of the same budget has its own counter.
		HttpResponse<String> note = send("/notes/1", "good-bob");
		assertThat(note.statusCode()).isEqualTo(200);
		assertThat(note.headers().firstValue("X-RateLimit-Remaining")).contains("2");

		String key = "per-route/t:" + Sha256.base64Url("good-bob");
		assertThat(store.keys()).containsExactly(key + "@/links/%7Bid%7D", key + "@/links/%7Bid%7D",
				key + "@/links/%7Bid%7D", key + "@/links/%7Bid%7D", key + "@/notes/%7Bid%7D");
		assertThat(store.keys()).noneMatch(k -> k.contains("/links/1") || k.contains("/links/2"));
	}

	@Test
	void pathWhenUnmatchedShouldFallToTheDefaultBudgetNeverToUnlimited() throws Exception {
		assertThat(send("/no/such/handler", "good-carol").statusCode()).isEqualTo(404);
		assertThat(store.keys()).containsExactly("standard/t:" + Sha256.base64Url("good-carol"));
	}

	private HttpResponse<String> send(String path, String token) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET();
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

}
