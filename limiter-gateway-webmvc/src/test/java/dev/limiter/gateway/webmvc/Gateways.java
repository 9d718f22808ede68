package dev.limiter.gateway.webmvc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts {@link GatewayTestApplication} on a free port in front of a {@link Backend},
 * with the routes and budgets every gateway test shares: {@code limited}
 * ({@code /limited/**}, {@code Limiter=tight}: 3 a minute), {@code usage}
 * ({@code /usage/**}, {@code Limiter=tokens}: 100 requests and 100000 tokens a minute),
 * {@code open} ({@code /open/**}, no {@code Limiter}: the default budget), and the Java
 * DSL's {@code dsl} ({@code /dsl/**}, budget {@code dsl}: 2 a minute).
 */
final class Gateways {

	/** HTTP/1.1: the gateway speaks nothing else to its clients here. */
	static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private Gateways() {
	}

	static ConfigurableApplicationContext start(Backend backend, String... extraProperties) {
		String routes = "spring.cloud.gateway.server.webmvc.routes";
		List<String> properties = new ArrayList<>(List.of("server.port=0", "backend.uri=" + backend.uri(),
				"limiter.auth-guard.enabled=false", "limiter.headers=both",
				"limiter.budgets.tight.windows.minute.limit=3", "limiter.budgets.tight.windows.minute.duration=1m",
				"limiter.budgets.dsl.windows.minute.limit=2", "limiter.budgets.dsl.windows.minute.duration=1m",
				"limiter.budgets.tokens.windows.minute.limit=100", "limiter.budgets.tokens.windows.minute.duration=1m",
				"limiter.budgets.tokens.windows.tokens.limit=100000",
				"limiter.budgets.tokens.windows.tokens.duration=1m",
				"limiter.budgets.tokens.windows.tokens.unit=tokens", routes + "[0].id=limited",
				routes + "[0].uri=" + backend.uri(), routes + "[0].predicates[0]=Path=/limited/**",
				routes + "[0].filters[0]=Limiter=tight", routes + "[1].id=usage", routes + "[1].uri=" + backend.uri(),
				routes + "[1].predicates[0]=Path=/usage/**", routes + "[1].filters[0].name=Limiter",
				routes + "[1].filters[0].args.budget=tokens", routes + "[2].id=open",
				routes + "[2].uri=" + backend.uri(), routes + "[2].predicates[0]=Path=/open/**",
				"limiter.budgets.llm.windows.minute.limit=100", "limiter.budgets.llm.windows.minute.duration=1m",
				"limiter.budgets.llm.concurrency.max=1", routes + "[3].id=slow", routes + "[3].uri=" + backend.uri(),
				routes + "[3].predicates[0]=Path=/slow/**", routes + "[3].filters[0]=Limiter=llm,true"));
		properties.addAll(List.of(extraProperties));
		return new SpringApplicationBuilder(GatewayTestApplication.class).web(WebApplicationType.SERVLET)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	static int port(ConfigurableApplicationContext gateway) {
		return Integer.parseInt(gateway.getEnvironment().getProperty("local.server.port"));
	}

	/** A GET of {@code path} by {@code caller} (authenticated). */
	static HttpResponse<String> get(ConfigurableApplicationContext gateway, String path, String caller)
			throws Exception {
		return http.send(request(gateway, path, caller), HttpResponse.BodyHandlers.ofString());
	}

	/** The GET of {@code path} by {@code caller} (authenticated), not sent. */
	static HttpRequest request(ConfigurableApplicationContext gateway, String path, String caller) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(gateway) + path))
			.header(GatewayTestApplication.CALLER_HEADER, caller)
			.timeout(Duration.ofSeconds(30))
			.GET()
			.build();
	}

	static String header(HttpResponse<?> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

}
