package dev.limiter.benchmarks.peers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample app's constant route, {@code GET /s/agents.md}, byte for byte and with the
 * same headers, for the peer apps to {@code @Import}: every app measured serves the same
 * response. Also how each peer app starts, and how it hashes a token.
 */
@RestController
public class PeerRoute {

	/** The sample app's {@code /s/agents.md} body. */
	public static final String AGENTS_MD = """
			# agents.md

			This service remembers and recalls short notes. Send `Authorization: Bearer <token>`;
			get a trial token with `POST /try`.
			""";

	/**
	 * Runs a peer app with its defaults ({@code application.yml} as its user writes it);
	 * the command line overrides them.
	 */
	public static void start(Class<?> application, Map<String, Object> defaults, String[] args) {
		SpringApplication app = new SpringApplication(application);
		app.setDefaultProperties(defaults);
		app.run(args);
	}

	/** The SHA-256 of a header's text, as limiter hashes a credential. */
	public static byte[] sha256(String value) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@GetMapping("/s/agents.md")
	ResponseEntity<String> agents() {
		return ResponseEntity.ok()
			.cacheControl(CacheControl.maxAge(Duration.ofSeconds(60)).cachePublic())
			.contentType(MediaType.valueOf("text/markdown;charset=UTF-8"))
			.body(AGENTS_MD);
	}

}
