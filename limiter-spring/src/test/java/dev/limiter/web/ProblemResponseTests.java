package dev.limiter.web;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.junit.jupiter.api.Test;

import org.springframework.http.ProblemDetail;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemResponseTests {

	@Test
	void writeToWhenRefusingShouldWriteTheDocumentedBytes() throws IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();

		ProblemResponse.of(413, "Content Too Large")
			.detail("The request body is larger than 10 bytes.")
			.with("error", "request_body_too_large")
			.with("limit", 10L)
			.writeTo(response);

		assertThat(response.getContentAsString()).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Content Too Large\","
				+ "\"status\":413,\"detail\":\"The request body is larger than 10 bytes.\","
				+ "\"error\":\"request_body_too_large\",\"limit\":10}");
	}

	@Test
	void writeToWhenRefusingShouldMarkTheAnswerUncacheable() throws IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();

		ProblemResponse.of(503, "Service Unavailable").retryAfter(5).writeTo(response);

		assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
		assertThat(response.getHeader("CDN-Cache-Control")).isEqualTo("no-store");
		assertThat(response.getHeader("Retry-After")).isEqualTo("5");
		assertThat(response.getContentType()).startsWith(ProblemResponse.PROBLEM_JSON);
	}

	@Test
	void writeKeepingHeadersWhenCallerAddsHeadersShouldSetThemAllBeforeTheBody() throws IOException {
		OrderRecordingResponse response = new OrderRecordingResponse();

		ProblemResponse.of(429, "Too Many Requests")
			.retryAfter(3)
			.header("X-RateLimit-Degraded", "true")
			.writeKeepingHeaders(response, r -> r.setHeader("X-RateLimit-Limit", "10"));

		assertThat(response.events).endsWith("body", "commit");
		assertThat(response.events.subList(0, response.events.indexOf("body"))).contains("Cache-Control",
				"CDN-Cache-Control", "Retry-After", "X-RateLimit-Degraded", "X-RateLimit-Limit");
	}

	@Test
	void writeKeepingHeadersWhenTheChainSetHeadersShouldKeepThem() throws IOException {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setHeader("X-Frame-Options", "DENY");

		ProblemResponse.of(401, "Unauthorized").writeKeepingHeaders(response, r -> {
		});

		assertThat(response.getHeader("X-Frame-Options")).isEqualTo("DENY");
	}

	@Test
	void encodeWhenValuesNeedEscapingShouldEscapeThemAsJson() {
		ProblemDetail problem = ProblemDetail.forStatus(400);
		problem.setTitle("Bad \"Request\"");
		problem.setProperty("path", "a\\b\n\u00e9");

		assertThat(ProblemJson.encode(problem)).isEqualTo("{\"type\":\"about:blank\",\"title\":\"Bad \\\"Request\\\"\","
				+ "\"status\":400,\"path\":\"a\\\\b\\u000a\\u00e9\"}");
	}

	@Test
	void encodeWhenReadByJacksonShouldCarryEveryMember() throws IOException {
		ProblemDetail problem = ProblemDetail.forStatus(429);
		problem.setType(URI.create("https://iana.org/assignments/http-problem-types#quota-exceeded"));
		problem.setTitle("Too Many Requests");
		problem.setDetail("retry after 3 seconds");
		problem.setInstance(URI.create("/api/x"));
		problem.setProperty("retryAfter", 3L);
		problem.setProperty("violated-policies", List.of("minute", "hour"));
		problem.setProperty("degraded", true);

		Map<String, Object> read = new ObjectMapper().readValue(ProblemJson.encode(problem),
				new TypeReference<Map<String, Object>>() {
				});

		assertThat(read).containsEntry("type", "https://iana.org/assignments/http-problem-types#quota-exceeded")
			.containsEntry("title", "Too Many Requests")
			.containsEntry("status", 429)
			.containsEntry("detail", "retry after 3 seconds")
			.containsEntry("instance", "/api/x")
			.containsEntry("retryAfter", 3)
			.containsEntry("violated-policies", List.of("minute", "hour"))
			.containsEntry("degraded", true);
	}

	/** Records the order of header writes, the body and the commit. */
	private static final class OrderRecordingResponse extends HttpServletResponseWrapper {

		final List<String> events = new ArrayList<>();

		OrderRecordingResponse() {
			super(new MockHttpServletResponse());
		}

		@Override
		public void setHeader(String name, String value) {
			events.add(name);
			super.setHeader(name, value);
		}

		@Override
		public void flushBuffer() throws IOException {
			events.add("commit");
			super.flushBuffer();
		}

		@Override
		public ServletOutputStream getOutputStream() {
			return new ServletOutputStream() {
				@Override
				public void write(int b) {
					events.add("body");
				}

				@Override
				public void write(byte[] b, int off, int len) {
					events.add("body");
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setWriteListener(WriteListener listener) {
				}
			};
		}

	}

}
