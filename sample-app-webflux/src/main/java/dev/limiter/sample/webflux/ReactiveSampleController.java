package dev.limiter.sample.webflux;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import dev.limiter.sample.SampleProperties;
import dev.limiter.sample.TokenService;
import dev.limiter.spring.RateLimited;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * sample-app's routes on WebFlux: every handler on the default budget ({@code standard}
 * for a token, {@code anonymous} without one) by the class annotation; the YAML's
 * {@code limiter.routes} make the two note routes expensive. The expensive work waits
 * without holding a thread.
 */
@RestController
@RateLimited
class ReactiveSampleController {

	private static final String AGENTS_MD = """
			# agents.md

			This service remembers and recalls short notes. Send `Authorization: Bearer <token>`;
			get a trial token with `POST /try`.
			""";

	private final TokenService tokens;

	private final SampleProperties properties;

	ReactiveSampleController(TokenService tokens, SampleProperties properties) {
		this.tokens = tokens;
		this.properties = properties;
	}

	/**
	 * The token is counted as the address that minted it (see
	 * ReactiveSecurityConfiguration).
	 */
	@PostMapping("/try")
	Mono<Map<String, String>> mintTrialToken(ServerWebExchange exchange) {
		String address = remoteAddress(exchange);
		// SecureRandom may read the OS's entropy (a blocking file read): never on the
		// event
		// loop
		return Mono.fromCallable(() -> Map.of("token", tokens.mintTrialToken(address)))
			.subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Cheap and the same for everyone, so a shared cache may keep it: the limiter leaves
	 * its counters off.
	 */
	@GetMapping("/s/agents.md")
	ResponseEntity<String> agents() {
		return ResponseEntity.ok()
			.cacheControl(CacheControl.maxAge(Duration.ofSeconds(60)).cachePublic())
			.contentType(MediaType.valueOf("text/markdown;charset=UTF-8"))
			.body(AGENTS_MD);
	}

	@PostMapping("/s/recall")
	Mono<Map<String, Object>> recall() {
		return work().thenReturn(Map.of("recalled", new String[] { "the meeting moved to Thursday" }));
	}

	@PostMapping("/s/remember")
	Mono<Map<String, Object>> remember() {
		return work().thenReturn(Map.of("remembered", true));
	}

	@GetMapping("/public/ping")
	Map<String, Object> ping() {
		return Map.of("pong", true);
	}

	private Mono<Long> work() {
		return Mono.delay(properties.getExpensiveDelay());
	}

	/** The client's address as the limiter keys an anonymous caller. */
	static String remoteAddress(ServerWebExchange exchange) {
		InetSocketAddress address = exchange.getRequest().getRemoteAddress();
		if (address == null) {
			return "";
		}
		return (address.getAddress() != null) ? address.getAddress().getHostAddress() : address.getHostString();
	}

}
