package dev.limiter.gateway.webflux;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.web.server.WebFilter;

/**
 * A gateway application as a user writes one: Spring Cloud Gateway's WebFlux server, the
 * limiter's starter and this module, its routes in properties. Its "security" puts the
 * bearer token of a request into the Reactor context as Spring Security's
 * {@code WebFilterChainProxy} would, before the limiter's filter.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class GatewayApplication {

	/** Runs a gateway with {@code properties} on a free port. */
	static ConfigurableApplicationContext run(List<String> properties) {
		return run(properties, new Class<?>[0]);
	}

	/** Runs a gateway with {@code properties} and the {@code extra} configurations. */
	static ConfigurableApplicationContext run(List<String> properties, Class<?>... extra) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "limiter.auth-guard.enabled=false",
				"management.health.redis.enabled=false", "limiter.headers=both"));
		all.addAll(properties);
		return new SpringApplicationBuilder(GatewayApplication.class).sources(extra)
			.web(WebApplicationType.REACTIVE)
			.properties(all.toArray(String[]::new))
			.run();
	}

	static int port(ConfigurableApplicationContext gateway) {
		// read from the environment: the web server context's type moved between Boot 3
		// and 4
		return gateway.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	/**
	 * A route's properties: {@code id}, {@code Path=/<id>/**} to the backend, each filter
	 * property after {@code filters} ({@code [0]=Limiter=gold},
	 * {@code [0].name=Limiter}).
	 */
	static List<String> route(int index, String id, String uri, String... filters) {
		String at = "spring.cloud.gateway.server.webflux.routes[" + index + "].";
		List<String> route = new ArrayList<>(
				List.of(at + "id=" + id, at + "uri=" + uri, at + "predicates[0]=Path=/" + id + "/**"));
		for (int i = 0; i < filters.length; i++) {
			route.add(at + "filters" + filters[i]);
		}
		return route;
	}

	/**
	 * Time stands still mid-minute: no window boundary falls between a test's calls, so
	 * the counts and refusals they assert are exact. No test here waits for a window, a
	 * refill or a lease to run out.
	 */
	@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME, defaultCandidate = false)
	Clock limiterClock() {
		return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
	}

	@Bean
	@Order(-100)
	WebFilter bearerTokenAuthentication() {
		return (exchange, chain) -> {
			String authorization = exchange.getRequest().getHeaders().getFirst("Authorization");
			if (authorization == null || !authorization.startsWith("Bearer ")) {
				return chain.filter(exchange);
			}
			String token = authorization.substring("Bearer ".length());
			return chain.filter(exchange)
				.contextWrite(ReactiveSecurityContextHolder
					.withAuthentication(new TestingAuthenticationToken(token, token, "ROLE_USER")));
		};
	}

}
