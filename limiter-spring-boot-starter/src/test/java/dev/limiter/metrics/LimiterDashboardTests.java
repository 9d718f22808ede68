package dev.limiter.metrics;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.guard.GuardTestApplication;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/grafana/limiter-dashboard.json} queries only what the starter registers:
 * every metric and every label its queries name is in a real Prometheus scrape of an
 * application on Redis after traffic (admissions, refusals, an expensive request, failed
 * authentications up to a block).
 */
@UsesRedisServer
class LimiterDashboardTests {

	private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "limiter-dashboard.json");

	private static final Pattern METRIC = Pattern.compile("\\b((?:limiter|resilience4j)_[a-z0-9_]+)\\b");

	private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)\\s*\"");

	private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

	private static final Pattern LABEL_VALUES = Pattern
		.compile("label_values\\(\\s*([a-z0-9_]+)\\s*,\\s*(\\w+)\\s*\\)");

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.perClass();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	void dashboardWhenComparedWithAScrapeAfterTrafficShouldQueryOnlyRegisteredMetricsAndLabels() throws Exception {
		JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
		List<String> queries = queries(dashboard);
		assertThat(queries).hasSizeGreaterThan(10);
		try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GuardTestApplication.class)
			.properties("server.port=0", "limiter.store=redis", "spring.data.redis.host=" + redis.server().host(),
					"spring.data.redis.port=" + redis.port(), "limiter.redis.key-prefix=dashboard",
					"limiter.budgets.standard.windows.minute.limit=3", "limiter.routes[0].pattern=/expensive",
					"limiter.routes[0].expensive=true", "limiter.auth-guard.threshold=2")
			.run()) {
			traffic(app);
			Map<String, Set<String>> scraped = scrape(app.getBean(PrometheusMeterRegistry.class).scrape());
			List<String> problems = new ArrayList<>();
			for (String query : queries) {
				Set<String> metrics = new LinkedHashSet<>();
				Matcher metric = METRIC.matcher(query);
				while (metric.find()) {
					metrics.add(metric.group(1));
				}
				assertThat(metrics).as("a query of the limiter's: " + query).isNotEmpty();
				Set<String> labels = new HashSet<>();
				for (String metricName : metrics) {
					if (!scraped.containsKey(metricName)) {
						problems.add("metric " + metricName + " of " + query + " is not registered");
					}
					else {
						labels.addAll(scraped.get(metricName));
					}
				}
				for (String label : labels(query)) {
					if (!labels.contains(label)) {
						problems.add("label " + label + " of " + query + " is on none of " + metrics);
					}
				}
			}
			assertThat(problems).isEmpty();
			// the traffic reached every panel's meter: a refusal, a lease, a block
			assertThat(scraped).containsKeys("limiter_near_limit_total", "limiter_leases_active",
					"limiter_auth_guard_blocks_total", "limiter_degraded", "resilience4j_circuitbreaker_state");
		}
	}

	private void traffic(ConfigurableApplicationContext app) throws Exception {
		// every good token is the principal "good": one counter of 3 a minute
		assertThat(get(app, "/expensive", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(200);
		for (int i = 0; i < 2; i++) {
			assertThat(get(app, "/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(200);
		}
		assertThat(get(app, "/hello", "Bearer " + GuardTestApplication.GOOD_TOKEN).statusCode()).isEqualTo(429);
		assertThat(get(app, "/public/hello", null).statusCode()).isEqualTo(200);
		for (int i = 0; i < 3; i++) {
			get(app, "/hello", "Bearer sp_wrong-" + i);
		}
		HttpResponse<String> blocked = null;
		for (int i = 0; i < 50 && (blocked == null || blocked.statusCode() != 429); i++) {
			// the failures are counted without waiting: the block shows within a few
			// requests
			blocked = get(app, "/hello", "Bearer sp_wrong-again-" + i);
		}
		assertThat(blocked.statusCode()).isEqualTo(429);
	}

	private HttpResponse<String> get(ConfigurableApplicationContext app, String path, String authorization)
			throws Exception {
		int port = ((ServletWebServerApplicationContext) app).getWebServer().getPort();
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30));
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Every query of every panel and variable. */
	private static List<String> queries(JsonNode dashboard) {
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.path("targets")) {
				queries.add(target.get("expr").asText());
			}
		}
		for (JsonNode variable : dashboard.at("/templating/list")) {
			if ("query".equals(variable.path("type").asText())) {
				queries.add(variable.get("definition").asText());
			}
		}
		return queries;
	}

	private static Set<String> labels(String query) {
		Set<String> labels = new HashSet<>();
		Matcher matcher = MATCHER.matcher(query);
		while (matcher.find()) {
			labels.add(matcher.group(1));
		}
		Matcher grouping = GROUPING.matcher(query);
		while (grouping.find()) {
			for (String label : grouping.group(1).split(",")) {
				if (!label.isBlank()) {
					labels.add(label.trim());
				}
			}
		}
		Matcher values = LABEL_VALUES.matcher(query);
		while (values.find()) {
			labels.add(values.group(2));
		}
		return labels;
	}

	/** Metric name to the label names its samples carry. */
	private static Map<String, Set<String>> scrape(String exposition) {
		Map<String, Set<String>> metrics = new HashMap<>();
		Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
		for (String line : exposition.split("\n")) {
			if (line.isBlank() || line.startsWith("#")) {
				continue;
			}
			int brace = line.indexOf('{');
			int space = line.indexOf(' ');
			String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
			Set<String> labels = metrics.computeIfAbsent(name, n -> new HashSet<>());
			if (brace >= 0 && brace < space) {
				Matcher matcher = label.matcher(line.substring(brace, line.lastIndexOf('}')));
				while (matcher.find()) {
					labels.add(matcher.group(1));
				}
			}
		}
		return metrics;
	}

}
