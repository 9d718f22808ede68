package dev.limiter.sample;

import java.time.Duration;
import java.util.Map;

import dev.limiter.spring.RateLimited;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every handler here is on the default budget ({@code standard} for a token,
 * {@code anonymous} without one) by the class annotation; {@code limiter.routes} in
 * application.yml makes the two note routes expensive. Nothing is left to fall to the
 * default implicitly: the start-up inventory is strict (see application.yml).
 */
@RestController
@RateLimited
class SampleController {

	private static final String AGENTS_MD = """
			# agents.md

			This service remembers and recalls short notes. Send `Authorization: Bearer <token>`;
			get a trial token with `POST /try`.
			""";

	private final TokenService tokens;

	private final SampleProperties properties;

	SampleController(TokenService tokens, SampleProperties properties) {
		this.tokens = tokens;
		this.properties = properties;
	}

	/** The token is counted as the address that minted it (see SecurityConfiguration). */
	@PostMapping("/try")
	Map<String, String> mintTrialToken(HttpServletRequest request) {
		return Map.of("token", tokens.mintTrialToken(request.getRemoteAddr()));
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
	Map<String, Object> recall() throws InterruptedException {
		work();
		return Map.of("recalled", new String[] { "the meeting moved to Thursday" });
	}

	@PostMapping("/s/remember")
	Map<String, Object> remember() throws InterruptedException {
		work();
		return Map.of("remembered", true);
	}

	@GetMapping("/public/ping")
	Map<String, Object> ping() {
		return Map.of("pong", true);
	}

	private void work() throws InterruptedException {
		Thread.sleep(properties.getExpensiveDelay().toMillis());
	}

}
