package dev.limiter.sample.webflux;

import dev.limiter.reactive.ReactiveProblems;
import dev.limiter.reactive.ReactiveRateLimitUsage;
import dev.limiter.spring.RateLimited;
import dev.limiter.web.ProblemResponse;
import reactor.core.publisher.Mono;

import org.springframework.core.codec.DecodingException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;

/**
 * sample-app's completion on WebFlux: each call reserves the route's estimate of tokens
 * (100) before the handler runs, and the handler reports what it used, settled when the
 * response ends.
 */
@RestController
@RateLimited(budget = "completion")
class ReactiveCompletionController {

	private static final String BAD_BODY = "The body must be one JSON object {\"tokens\": N}, N a whole number of at "
			+ "least 0, written once.";

	@PostMapping(path = "/s/complete", consumes = MediaType.APPLICATION_JSON_VALUE)
	Mono<ResponseEntity<String>> complete(@RequestBody Mono<CompletionRequest> body, ServerWebExchange exchange) {
		return body.flatMap((request) -> {
			if (request.tokens() == null || request.tokens() < 0) {
				return Mono.empty();
			}
			// what a completion's usage says it cost
			ReactiveRateLimitUsage.report(exchange, "tokens", request.tokens());
			return Mono.just(ResponseEntity.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.body("{\"completion\":\"ok\",\"tokens\":" + request.tokens() + "}"));
		}).switchIfEmpty(Mono.defer(() -> completedNothing(exchange).then(Mono.empty())));
	}

	@ExceptionHandler({ ServerWebInputException.class, DecodingException.class })
	Mono<Void> unreadable(ServerWebExchange exchange) {
		return completedNothing(exchange);
	}

	private static Mono<Void> completedNothing(ServerWebExchange exchange) {
		ReactiveRateLimitUsage.report(exchange, "tokens", 0);
		return ReactiveProblems.write(exchange, ProblemResponse.of(400, "Bad Request").detail(BAD_BODY));
	}

	record CompletionRequest(Long tokens) {
	}

}
