package dev.limiter.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RateLimited;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A stand-in for a model completion: {@code POST /s/complete} with {@code {"tokens": N}}
 * answers, then reports N tokens used, as an application reports a completion's token
 * usage once the model has answered. The {@code completion} budget reserved the route's
 * estimate (100 tokens, application.yml) before this ran; the limiter settles the
 * difference when the request ends.
 */
@RestController
@RateLimited(budget = "completion")
class CompletionController {

	@PostMapping(path = "/s/complete", consumes = MediaType.APPLICATION_JSON_VALUE)
	void complete(@RequestBody CompletionRequest body, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (body == null || body.tokens() == null || body.tokens() < 0) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "tokens must be a whole number of at least 0");
		}
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.getOutputStream()
			.write(("{\"completion\":\"ok\",\"tokens\":" + body.tokens() + "}").getBytes(StandardCharsets.UTF_8));
		// after the answer was written: what a completion's usage says it cost
		RateLimitUsage.report(request, "tokens", body.tokens());
	}

	/** The request body: how many tokens the completion uses. */
	record CompletionRequest(Long tokens) {
	}

}
