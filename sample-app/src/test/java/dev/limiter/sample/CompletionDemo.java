package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.IntUnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's demo of the {@code completion} budget over real ports, 1 s into a minute
 * on the limiter's clock: {@code {"tokens":1500}} → 200, {@code {"tokens":600}} → 200
 * (its 100 reserved fit; the window is then 100 over), the next call → 429 with
 * {@code Retry-After} to the minute's end (59) and the {@code tokens} window and its unit
 * named in the body; the calendar month beside them ({@code w} its 31 days in January).
 * {@code ports} gives the port of each call (one instance, or alternating between two),
 * in a January whose month counted nothing before.
 */
final class CompletionDemo {

	static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private static final ObjectMapper JSON = new ObjectMapper();

	private CompletionDemo() {
	}

	/** Runs the demo; returns its three responses. */
	static List<HttpResponse<String>> run(IntUnaryOperator ports) throws Exception {
		HttpResponse<String> first = complete(ports.applyAsInt(0), 1_500);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.body()).isEqualTo("{\"completion\":\"ok\",\"tokens\":1500}");
		// the headers were written before the report: 100 of the 2,000 reserved
		// the month's t is the seconds to 1 February, 00:00 in Berlin: it depends on the
		// day
		assertThat(first.headers().firstValue("RateLimit")).hasValueSatisfying((value) -> assertThat(value)
			.startsWith("\"minute\";r=59;t=59, \"tokens\";r=1900;t=59, \"month\";r=199900;t="));
		assertThat(first.headers().firstValue("X-RateLimit-Remaining")).contains("59");

		HttpResponse<String> second = complete(ports.applyAsInt(1), 600);
		assertThat(second.statusCode()).as("%s", second.headers().map()).isEqualTo(200);
		assertThat(second.headers().firstValue("X-RateLimit-Degraded")).as("%s", second.headers().map()).isEmpty();
		assertThat(second.headers().firstValue("RateLimit")).hasValueSatisfying((value) -> assertThat(value)
			.startsWith("\"minute\";r=58;t=59, \"tokens\";r=400;t=59, \"month\";r=198400;t="));

		HttpResponse<String> third = complete(ports.applyAsInt(2), 10);
		assertThat(third.statusCode()).isEqualTo(429);
		assertThat(third.headers().firstValue("Retry-After")).contains("59");
		assertThat(third.headers().firstValue("RateLimit-Policy"))
			.contains("\"minute\";q=60;w=60, \"tokens\";q=2000;qu=\"tokens\";w=60, "
					+ "\"month\";q=200000;qu=\"tokens\";w=2678400");
		assertThat(third.headers().firstValue("RateLimit")).hasValueSatisfying((value) -> assertThat(value)
			.startsWith("\"minute\";r=58;t=59, \"tokens\";r=0;t=59, \"month\";r=197900;t="));
		assertThat(third.headers().firstValue("X-RateLimit-Remaining")).contains("58");
		JsonNode body = JSON.readTree(third.body());
		assertThat(body.get("bound").asText()).isEqualTo("tokens");
		assertThat(body.get("unit").asText()).isEqualTo("tokens");
		assertThat(body.get("remaining").asLong()).isZero();
		assertThat(body.get("retryAfter").asLong()).isEqualTo(59);
		assertThat(body.get("violated-policies").get(0).asText()).isEqualTo("tokens");
		return List.of(first, second, third);
	}

	static HttpResponse<String> complete(int port, long tokens) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/s/complete"))
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"tokens\":" + tokens + "}"))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
