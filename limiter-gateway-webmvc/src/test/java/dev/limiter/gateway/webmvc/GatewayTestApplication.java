package dev.limiter.gateway.webmvc;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.gateway.server.mvc.filter.BeforeFilterFunctions;
import org.springframework.cloud.gateway.server.mvc.handler.GatewayRouterFunctions;
import org.springframework.cloud.gateway.server.mvc.handler.HandlerFunctions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A gateway: its routes come from each test's properties
 * ({@code spring.cloud.gateway.server.webmvc.routes}), callers named by {@code X-Caller}
 * ({@link #callerKeys()}), plus one Java DSL route ({@code dsl}, on the budget
 * {@code dsl}) to {@code backend.uri}, and one controller of its own
 * ({@code /local/ping}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(GatewayTestApplication.Local.class)
class GatewayTestApplication {

	static final String CALLER_HEADER = "X-Caller";

	/**
	 * Time stands still mid-minute: no window boundary falls between a test's calls, so
	 * the counts, refusals and settlements they assert are exact. No test here waits for
	 * a window, a refill or a lease to run out.
	 */
	@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME, defaultCandidate = false)
	Clock limiterClock() {
		return Clock.fixed(Instant.parse("2030-01-01T00:00:30Z"), ZoneOffset.UTC);
	}

	@Bean
	RouterFunction<ServerResponse> dslRoute(@Value("${backend.uri}") String backend) {
		return GatewayRouterFunctions.route("dsl")
			.GET("/dsl/**", HandlerFunctions.http())
			.before(BeforeFilterFunctions.uri(backend))
			.withAttributes(LimiterFilterFunctions.limiter("dsl"))
			.build();
	}

	/**
	 * The caller a request names in {@code X-Caller}, authenticated as the gateway's
	 * security would have established it; without one, anonymous by address.
	 */
	@Bean
	KeyResolver callerKeys() {
		return (request) -> {
			String caller = request.getHeader(CALLER_HEADER);
			return (caller != null) ? CallerKey.authenticated("t:" + caller, () -> caller)
					: CallerKey.anonymous("a:" + request.getRemoteAddr());
		};
	}

	@RestController
	static class Local {

		@GetMapping("/local/ping")
		String ping() {
			return "pong";
		}

	}

}
