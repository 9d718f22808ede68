package dev.limiter.benchmarks.peers;

import java.time.Duration;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample app's constant route, {@code GET /s/agents.md}, byte for byte and with the
 * same headers, for the peer apps to {@code @Import}: every app measured serves the same
 * response.
 */
@RestController
public class PeerRoute {

	/** The sample app's {@code /s/agents.md} body. */
	public static final String AGENTS_MD = """
			# agents.md

			This service remembers and recalls short notes. Send `Authorization: Bearer <token>`;
			get a trial token with `POST /try`.
			""";

	@GetMapping("/s/agents.md")
	ResponseEntity<String> agents() {
		return ResponseEntity.ok()
			.cacheControl(CacheControl.maxAge(Duration.ofSeconds(60)).cachePublic())
			.contentType(MediaType.valueOf("text/markdown;charset=UTF-8"))
			.body(AGENTS_MD);
	}

}
