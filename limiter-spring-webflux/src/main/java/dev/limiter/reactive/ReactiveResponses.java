package dev.limiter.reactive;

import java.util.List;

import dev.limiter.core.Decision;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.decision.SharedCacheability;
import dev.limiter.web.ExposedHeaders;
import dev.limiter.web.RateLimitHeader;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * What the reactive filter writes, as {@link DecisionResponses} says it (the servlet
 * writer's own headers and bodies, byte for byte): the limiter's problem responses, and
 * the counters of an admitted response just before it commits.
 */
final class ReactiveResponses {

	private static final Log logger = LogFactory.getLog(ReactiveRateLimitFilter.class);

	private final DecisionResponses responses;

	ReactiveResponses(DecisionResponses responses) {
		this.responses = responses;
	}

	DecisionResponses decisions() {
		return responses;
	}

	/**
	 * The counters of an admitted response: never on one a shared cache may store (they
	 * are one caller's), never at the cost of the application's answer.
	 */
	void writeCounters(ServerWebExchange exchange, Decision decision, boolean shadowRefused) {
		HttpHeaders headers = exchange.getResponse().getHeaders();
		boolean authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION) != null;
		if (SharedCacheability.isSharedCacheable(authorization, (name) -> values(headers, name))) {
			return;
		}
		try {
			responses.counters(decision, headers::set);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not write the counters: " + ex);
		}
		if (shadowRefused) {
			headers.set(RateLimitHeader.SHADOW.headerName(), RateLimitHeader.SHADOW_VALUE);
		}
		if (headers.getAccessControlAllowOrigin() != null) {
			headers.set(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS,
					ExposedHeaders.value(values(headers, HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS)));
		}
	}

	/**
	 * The header's values, split at commas: what the directives' and names' readers split
	 * anyway (and the one reading both Spring Framework 6 and 7 offer).
	 */
	private static List<String> values(HttpHeaders headers, String name) {
		return headers.getValuesAsList(name);
	}

}
