package dev.limiter.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RateLimited;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConversionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A stand-in for a model completion: {@code POST /s/complete} with {@code {"tokens": N}}
 * answers, then reports N tokens used, as an application reports a completion's token
 * usage once the model has answered. The {@code completion} budget reserved the route's
 * estimate (100 tokens, application.yml) before this ran; the limiter settles the
 * difference when the request ends. A body that is no completion request (not JSON,
 * {@code tokens} missing, negative or written twice) completes nothing: it is answered
 * {@code 400} with a problem body and reports 0 tokens, so its reservation is released (a
 * unit nobody reports keeps its estimate).
 */
@RestController
@RateLimited(budget = "completion")
class CompletionController {

	/** The header a gateway in front settles the completion's tokens from. */
	static final String USAGE_HEADER = "X-Usage-Tokens";

	@PostMapping(path = "/s/complete", consumes = MediaType.APPLICATION_JSON_VALUE)
	void complete(@RequestBody CompletionRequest body, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (body == null || body.tokens() == null || body.tokens() < 0) {
			completedNothing(request, response);
			return;
		}
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		// the same usage in a header, before the body: what a gateway in front reads
		// (sample-gateway's limiter.gateway.report-header), with no limiter code here
		response.setHeader(USAGE_HEADER, String.valueOf(body.tokens()));
		response.getOutputStream()
			.write(("{\"completion\":\"ok\",\"tokens\":" + body.tokens() + "}").getBytes(StandardCharsets.UTF_8));
		// after the answer was written: what a completion's usage says it cost
		RateLimitUsage.report(request, "tokens", body.tokens());
	}

	/**
	 * A body Spring could not turn into a {@link CompletionRequest}: not JSON, a wrong
	 * type, or {@code tokens} written twice (which Jackson refuses for a record's
	 * constructor).
	 */
	@ExceptionHandler(HttpMessageConversionException.class)
	void unreadable(HttpServletRequest request, HttpServletResponse response) throws IOException {
		completedNothing(request, response);
	}

	private static void completedNothing(HttpServletRequest request, HttpServletResponse response) throws IOException {
		RateLimitUsage.report(request, "tokens", 0);
		response.setHeader(USAGE_HEADER, "0");
		Problems.badRequest(response,
				"The body must be one JSON object {\"tokens\": N}, N a whole number of at least 0, written once.");
	}

	/** The request body: how many tokens the completion uses. */
	record CompletionRequest(Long tokens) {
	}

}
