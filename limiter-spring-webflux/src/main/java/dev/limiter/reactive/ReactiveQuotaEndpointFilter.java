package dev.limiter.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import dev.limiter.core.Budget;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.decision.StoreDecisions;
import dev.limiter.quota.QuotaReport;
import dev.limiter.spring.CallerKey;
import dev.limiter.web.ProblemResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The quota endpoint on a reactive application, as the servlet one answers it: at its
 * path, {@code GET} answers the authenticated caller's own {@link QuotaReport}
 * ({@code Cache-Control: no-store}); an anonymous caller gets a 401 problem. Bounded per
 * caller by its own budget ({@link QuotaReport#BUDGET_NAME}, taken without waiting),
 * refused with the contract's 429; a store that cannot read the counters answers the
 * contract's 503. Runs just before the rate-limit filter and answers itself, so reading
 * the quota spends nothing of it.
 *
 * <p>
 * The report reads every counter with the store's {@code peek}, a call that waits for its
 * answer: it runs on {@code reads}, a bounded scheduler, never on the event loop.
 */
public final class ReactiveQuotaEndpointFilter implements WebFilter, Ordered {

	/** Just before the rate-limit filter, after Spring Security's chain. */
	public static final int ORDER = ReactiveRateLimitFilter.ORDER_AFTER_SECURITY - 1;

	private final String path;

	private final QuotaReport report;

	private final ReactiveKeyResolver keyResolver;

	private final DecisionResponses responses;

	private final Budget bound;

	private final StoreDecisions decisions;

	private final Scheduler reads;

	/**
	 * @param perMinute how many times a caller may read its quota a minute
	 * @param reads where the report's reads of the store run (blocking is allowed there)
	 */
	public ReactiveQuotaEndpointFilter(String path, QuotaReport report, ReactiveKeyResolver keyResolver,
			RateLimitStore store, DecisionResponses responses, Clock clock, int perMinute, Scheduler reads) {
		this.path = path;
		this.report = report;
		this.keyResolver = keyResolver;
		this.responses = responses;
		this.bound = QuotaReport.bound(perMinute);
		this.decisions = new StoreDecisions(store, clock, ReactiveQuotaEndpointFilter.class.getName());
		this.reads = reads;
	}

	/** The endpoint's own budget: one window of {@code limit} a minute. */
	public Budget bound() {
		return bound;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!HttpMethod.GET.equals(exchange.getRequest().getMethod())
				|| !path.equals(exchange.getRequest().getPath().pathWithinApplication().value())) {
			return chain.filter(exchange);
		}
		return keyResolver.resolve(exchange).flatMap((caller) -> {
			if (!caller.authenticated()) {
				return ReactiveProblems.write(exchange, ProblemResponse.of(401, "Unauthorized")
					.detail("The quota endpoint answers an authenticated caller only."));
			}
			return Mono.fromCompletionStage(() -> decisions.takeAsync(bound, caller.value(), false, null))
				.flatMap((decision) -> decision.allowed() ? answer(exchange, caller)
						: ReactiveProblems.write(exchange, responses.refusal(decision)))
				.onErrorResume(StoreUnavailableException.class,
						(unavailable) -> ReactiveProblems.write(exchange, responses.unavailable(unavailable)))
				// a store without the fail-open wrapper cannot read the counters: a 503
				// with the contract's body, never a 500
				.onErrorResume(RateLimitStoreException.class, (failure) -> ReactiveProblems.write(exchange,
						responses.unavailable(new StoreUnavailableException(bound.name(), 1000, failure))));
		});
	}

	private Mono<Void> answer(ServerWebExchange exchange, CallerKey caller) {
		return Mono.fromCallable(() -> {
			try (RequestStoreTime.Scope storeTime = RequestStoreTime.open()) {
				return report.of(caller).toJson().getBytes(StandardCharsets.UTF_8);
			}
		}).subscribeOn(reads).flatMap((body) -> {
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(HttpStatus.OK);
			HttpHeaders headers = response.getHeaders();
			headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
			headers.setContentType(MediaType.APPLICATION_JSON);
			headers.setContentLength(body.length);
			return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
		});
	}

}
