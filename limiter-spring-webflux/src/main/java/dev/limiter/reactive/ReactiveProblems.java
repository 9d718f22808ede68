package dev.limiter.reactive;

import java.nio.charset.StandardCharsets;

import dev.limiter.web.ProblemResponse;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * Writes a {@link ProblemResponse} as the answer of a reactive exchange, byte for byte as
 * {@link ProblemResponse#writeKeepingHeaders} writes it on a servlet response: the
 * status, {@code Cache-Control} and {@code CDN-Cache-Control: no-store}, the problem's
 * own headers, {@code application/problem+json;charset=UTF-8} and its length. The headers
 * already set (the security chain's) stay. For an application's own problems too (a 401
 * of its authentication, say).
 */
public final class ReactiveProblems {

	/** The content type a servlet container writes for the problem body. */
	public static final String CONTENT_TYPE = ProblemResponse.PROBLEM_JSON + ";charset=UTF-8";

	private ReactiveProblems() {
	}

	/** Replaces the exchange's answer with {@code problem} and completes it. */
	public static Mono<Void> write(ServerWebExchange exchange, ProblemResponse problem) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.empty();
		}
		response.setStatusCode(HttpStatusCode.valueOf(problem.problem().getStatus()));
		HttpHeaders headers = response.getHeaders();
		problem.forEachHeader(headers::set);
		byte[] body = problem.body().getBytes(StandardCharsets.UTF_8);
		headers.set(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE);
		headers.setContentLength(body.length);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

}
