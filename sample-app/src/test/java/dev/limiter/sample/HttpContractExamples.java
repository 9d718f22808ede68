package dev.limiter.sample;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worked examples of {@code docs/http-contract.md} that a test checks: each follows a
 * line {@code <!-- checked example: NAME -->} as a fenced block holding the status line,
 * the limiter's headers in the order {@link #HEADERS} lists them, and the body. A
 * response shows the example when rendered the same way it is the same text, byte for
 * byte.
 */
final class HttpContractExamples {

	/** The headers an example shows, in this order, when the response carries them. */
	static final List<String> HEADERS = List.of("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining",
			"X-RateLimit-Reset", "X-RateLimit-Window", "RateLimit-Policy", "RateLimit", "Cache-Control",
			"Content-Type");

	private HttpContractExamples() {
	}

	static void assertShows(String name, HttpResponse<String> response) throws Exception {
		String rendered = render(response);
		assertThat(example(name)).as("the example '%s' of docs/http-contract.md; the app answered:%n%s", name, rendered)
			.isEqualTo(rendered);
	}

	static String render(HttpResponse<String> response) {
		StringBuilder text = new StringBuilder("HTTP/1.1 ").append(response.statusCode()).append('\n');
		for (String header : HEADERS) {
			response.headers()
				.firstValue(header)
				.ifPresent((value) -> text.append(header).append(": ").append(value).append('\n'));
		}
		return text.append('\n').append(response.body()).append('\n').toString();
	}

	private static String example(String name) throws Exception {
		String docs = Files.readString(Path.of("..", "docs", "http-contract.md"), StandardCharsets.UTF_8);
		String marker = "<!-- checked example: " + name + " -->";
		int at = docs.indexOf(marker);
		assertThat(at).as("the marker %s in docs/http-contract.md", marker).isNotNegative();
		int open = docs.indexOf("```\n", at) + 4;
		int close = docs.indexOf("\n```", open);
		return docs.substring(open, close + 1);
	}

}
