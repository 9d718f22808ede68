package dev.limiter.reactive;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.PendingAdmission;
import dev.limiter.guard.GuardOutcomes;
import dev.limiter.guard.LookupAttempt;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The authentication-failure guard on a reactive request, before Spring Security's
 * {@code WebFilterChainProxy}: the servlet guard's decisions and answers
 * ({@link GuardOutcomes}), never waited for on the event loop. A request carrying an
 * {@code Authorization} header from a blocked address is refused with the guard's 429
 * before any lookup; an admitted one holds a reservation while its credential is looked
 * up, settled by what the lookup proved:
 * <ul>
 * <li>authenticated ({@link ReactiveAuthenticationOutcomeFilter}, just after Spring
 * Security's chain) and admitted by the limiter's filter: proves the credential;</li>
 * <li>a {@code 401} set while the credential is not known to be good: one failure,
 * counted as the status is set, before a byte of the answer leaves;</li>
 * <li>anything else (the chain failed, the request was cancelled, no authentication took
 * place): the reservation goes back.</li>
 * </ul>
 * The lookup starts once the guard's answer is in (a completed stage, never a blocked
 * thread); a request cancelled meanwhile hands its reservation back.
 */
public final class ReactiveAuthGuardFilter implements WebFilter, Ordered {

	/** Just before Spring Security's {@code WebFilterChainProxy} (order -100). */
	public static final int ORDER_BEFORE_SECURITY = -100 - 1;

	/** The exchange attribute holding the request's lookup attempt. */
	static final String ATTEMPT_ATTRIBUTE = ReactiveAuthGuardFilter.class.getName() + ".ATTEMPT";

	private final GuardOutcomes outcomes;

	private final ReactiveLimiterCors cors;

	/**
	 * @param cors the CORS headers the guard's 429 carries, so that a browser on another
	 * origin can read it
	 */
	public ReactiveAuthGuardFilter(GuardOutcomes outcomes, ReactiveLimiterCors cors) {
		this.outcomes = outcomes;
		this.cors = cors;
	}

	@Override
	public int getOrder() {
		return ORDER_BEFORE_SECURITY;
	}

	/**
	 * A request without an {@code Authorization} header cannot be a guess: it is the
	 * anonymous budget's business, not the guard's.
	 */
	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization == null) {
			return chain.filter(exchange);
		}
		PendingAdmission pending = outcomes.begin(PrincipalKeyResolver.remoteAddress(exchange), authorization, false);
		if (pending == null) {
			return chain.filter(exchange);
		}
		CompletionStage<GuardAdmission> answer = pending.toStage();
		AtomicBoolean delivered = new AtomicBoolean();
		return Mono.fromCompletionStage(answer)
			.doOnNext((admission) -> delivered.set(true))
			// a request cancelled while its reservation travels hands it back
			.doOnCancel(() -> {
				if (!delivered.get()) {
					answer.thenAccept((admission) -> outcomes.settle(new LookupAttempt(pending, (attempt) -> {
					}), false));
				}
			})
			.flatMap((admission) -> {
				outcomes.answered(admission);
				if (!admission.admitted()) {
					return cors.write(exchange, outcomes.refusal(admission));
				}
				return lookup(exchange, chain, pending);
			});
	}

	private Mono<Void> lookup(ServerWebExchange exchange, WebFilterChain chain, PendingAdmission pending) {
		LookupAttempt attempt = new LookupAttempt(pending, (settling) -> outcomes.settle(settling, false));
		exchange.getAttributes().put(ATTEMPT_ATTRIBUTE, attempt);
		ServerHttpResponse response = exchange.getResponse();
		ServerWebExchange guarded = exchange.mutate().response(new FailureFirstResponse(response, () -> {
			if (!attempt.authenticated()) {
				outcomes.settle(attempt, true);
			}
		})).build();
		// settled before the end is passed on (not after, as doFinally would): whoever
		// waits for the answer then finds the reservation already back
		return chain.filter(guarded)
			.doOnSuccess((done) -> outcomes.settle(attempt, HttpStatus.UNAUTHORIZED.equals(response.getStatusCode())))
			.doOnError((ex) -> outcomes.settle(attempt, false))
			.doOnCancel(() -> outcomes.settle(attempt, false));
	}

	/**
	 * Whether the limiter's filter let the request through, told to the guard: a success
	 * proves a credential only for a request the limiter admitted.
	 */
	static void limiterDecided(ServerWebExchange exchange, boolean admitted) {
		if (exchange.getAttribute(ATTEMPT_ATTRIBUTE) instanceof LookupAttempt attempt) {
			attempt.limiterDecided(admitted);
		}
	}

	/**
	 * The response of an admitted lookup: a {@code 401} set on it while the credential is
	 * not known to be good is reported at that moment, so that the client's next guess
	 * finds the failure counted on this instance.
	 */
	private static final class FailureFirstResponse extends ServerHttpResponseDecorator {

		private final Runnable unauthorized;

		FailureFirstResponse(ServerHttpResponse delegate, Runnable unauthorized) {
			super(delegate);
			this.unauthorized = unauthorized;
		}

		@Override
		public boolean setStatusCode(HttpStatusCode status) {
			if (status != null && status.value() == HttpStatus.UNAUTHORIZED.value()) {
				unauthorized.run();
			}
			return super.setStatusCode(status);
		}

		/**
		 * Spring Framework 6's integer setter, which the decorator passes on directly.
		 */
		@SuppressWarnings("deprecation")
		public boolean setRawStatusCode(Integer value) {
			if (value != null && value == HttpStatus.UNAUTHORIZED.value()) {
				unauthorized.run();
			}
			return getDelegate().setStatusCode((value != null) ? HttpStatusCode.valueOf(value) : null);
		}

	}

}
