package dev.limiter.sample.boot4;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.limiter.sample.SampleApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "Trace a refusal" on Boot 4: the sample's refusal log line carries the
 * request's trace id, as on Boot 3.5.
 */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.budgets.anonymous.windows.minute.limit=2")
@ExtendWith(OutputCaptureExtension.class)
class SampleTracingBoot4Tests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void refusalWhenTracedOnBoot4ShouldBeLoggedWithItsTraceId(CapturedOutput output) throws Exception {
		HttpResponse<String> response = get("/public/ping");
		// At most one minute boundary can fall inside the loop: 2 + 2 + 1 calls reach a
		// refusal.
		for (int i = 0; i < 4 && response.statusCode() != 429; i++) {
			response = get("/public/ping");
		}
		assertThat(response.statusCode()).isEqualTo(429);
		String line = output.getOut()
			.lines()
			.filter((each) -> each.contains("Refused anonymous on /public/ping: window minute spent"))
			.reduce((first, last) -> last)
			.orElseThrow();
		// Boot's log pattern carries the trace id (128 bits, hex) once a tracing bridge
		// and Boot 4's tracing module are there
		assertThat(line).containsPattern("[0-9a-f]{32}");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
