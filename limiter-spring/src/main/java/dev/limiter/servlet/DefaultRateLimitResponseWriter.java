package dev.limiter.servlet;

import java.io.IOException;

import dev.limiter.core.Decision;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.spring.RateLimitResponseWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * docs/http-contract.md on the wire: {@code X-RateLimit-*} for the binding window, the
 * IETF {@code RateLimit-Policy} and {@code RateLimit} fields
 * (draft-ietf-httpapi-ratelimit-headers), and a 429 with {@code Retry-After} and an RFC
 * 9457 problem body. Everything the limiter produces itself is {@code no-store}.
 */
public class DefaultRateLimitResponseWriter implements RateLimitResponseWriter {

	public static final String ERROR_CODE = DecisionResponses.ERROR_CODE;

	/**
	 * The problem type draft-ietf-httpapi-ratelimit-headers registers for a refusal that
	 * names its policies.
	 */
	public static final String QUOTA_EXCEEDED_TYPE = DecisionResponses.QUOTA_EXCEEDED_TYPE;

	private final DecisionResponses responses;

	public DefaultRateLimitResponseWriter(boolean xRateLimitHeaders, boolean ietfHeaders) {
		this.responses = new DecisionResponses(xRateLimitHeaders, ietfHeaders);
	}

	@Override
	public void writeCounters(HttpServletResponse response, Decision decision) {
		responses.counters(decision, response::setHeader);
	}

	@Override
	public void writeRefusal(HttpServletRequest request, HttpServletResponse response, Decision decision)
			throws IOException {
		responses.refusal(decision).writeKeepingHeaders(response, r -> {
		});
	}

	@Override
	public void writeUnavailable(HttpServletRequest request, HttpServletResponse response,
			StoreUnavailableException failure) throws IOException {
		responses.unavailable(failure).writeKeepingHeaders(response, r -> {
		});
	}

}
