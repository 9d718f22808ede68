package dev.limiter.decision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.BiConsumer;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.core.Seconds;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.web.ProblemMember;
import dev.limiter.web.ProblemResponse;
import dev.limiter.web.RateLimitHeader;

/**
 * docs/http-contract.md as header names and values and problem bodies, whichever web
 * stack writes them: {@code X-RateLimit-*} for the binding window, the IETF
 * {@code RateLimit-Policy} and {@code RateLimit} fields
 * (draft-ietf-httpapi-ratelimit-headers), the degraded flag, and a 429 with
 * {@code Retry-After} and an RFC 9457 problem body (a {@link ProblemResponse},
 * {@code no-store}). The servlet writer and the reactive filter both write what this
 * says.
 */
public final class DecisionResponses {

	public static final String ERROR_CODE = "rate_limit_exceeded";

	/**
	 * The problem type draft-ietf-httpapi-ratelimit-headers registers for a refusal that
	 * names its policies.
	 */
	public static final String QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

	private final boolean xRateLimitHeaders;

	private final boolean ietfHeaders;

	public DecisionResponses(boolean xRateLimitHeaders, boolean ietfHeaders) {
		this.xRateLimitHeaders = xRateLimitHeaders;
		this.ietfHeaders = ietfHeaders;
	}

	/**
	 * The counters of an admitted request's decision, each header handed to
	 * {@code header}.
	 */
	public void counters(Decision decision, BiConsumer<String, String> header) {
		BoundVerdict shown = requestWindow(decision, decision.bindingWindow());
		counters(decision, shown, shown, header);
	}

	/**
	 * {@code X-RateLimit-*} describe the windows of requests: of a budget that also
	 * counts another unit, the binding window among those of requests (ADR 0012);
	 * {@code shown} itself when it counts requests or the budget has no window of
	 * requests.
	 */
	private static BoundVerdict requestWindow(Decision decision, BoundVerdict shown) {
		if (shown.countsRequests()) {
			return shown;
		}
		BoundVerdict binding = null;
		for (BoundVerdict v : decision.verdicts()) {
			if (!v.concurrency() && v.countsRequests() && (binding == null || v.remaining() < binding.remaining()
					|| (v.remaining() == binding.remaining() && v.resetAtMillis() > binding.resetAtMillis()))) {
				binding = v;
			}
		}
		return (binding != null) ? binding : shown;
	}

	/** Whether some window of the decision counts a unit other than requests. */
	private static boolean hasUnits(Decision decision) {
		for (BoundVerdict v : decision.verdicts()) {
			if (!v.countsRequests()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * {@code shown} is the window of the {@code X-RateLimit-*} headers (always a window);
	 * {@code policyShown} is the policy named in {@code RateLimit}, the concurrency bound
	 * itself when it is what refused.
	 */
	private void counters(Decision decision, BoundVerdict shown, BoundVerdict policyShown,
			BiConsumer<String, String> response) {
		long now = decision.decidedAtMillis();
		if (xRateLimitHeaders) {
			response.accept(RateLimitHeader.LIMIT.headerName(), Long.toString(shown.limit()));
			response.accept(RateLimitHeader.REMAINING.headerName(), Long.toString(shown.remaining()));
			response.accept(RateLimitHeader.RESET.headerName(), Long.toString(Seconds.ceil(shown.resetAtMillis())));
			response.accept(RateLimitHeader.WINDOW.headerName(),
					Long.toString(Seconds.atLeastOne(shown.periodMillis())));
		}
		if (ietfHeaders) {
			StringJoiner policy = new StringJoiner(", ");
			for (BoundVerdict verdict : decision.verdicts()) {
				if (verdict.concurrency()) {
					policy.add(RateLimitHeader.policyItem(verdict.name(), verdict.limit(),
							RateLimitHeader.CONCURRENT_REQUESTS, -1));
				}
				else {
					policy.add(RateLimitHeader.policyItem(verdict.name(), verdict.limit(),
							verdict.countsRequests() ? null : verdict.unit(),
							Seconds.atLeastOne(verdict.periodMillis())));
				}
			}
			response.accept(RateLimitHeader.RATE_LIMIT_POLICY.headerName(), policy.toString());
			if (hasUnits(decision)) {
				// every window's remaining: a caller pacing tokens needs the tokens left,
				// whichever window binds
				StringJoiner limits = new StringJoiner(", ");
				for (BoundVerdict verdict : decision.verdicts()) {
					limits.add(RateLimitHeader.limitItem(verdict.name(), verdict.remaining(),
							untilMoreQuota(verdict, now)));
				}
				response.accept(RateLimitHeader.RATE_LIMIT.headerName(), limits.toString());
			}
			else {
				response.accept(RateLimitHeader.RATE_LIMIT.headerName(), RateLimitHeader.limitItem(policyShown.name(),
						policyShown.remaining(), untilMoreQuota(policyShown, now)));
			}
		}
		if (decision.degraded()) {
			response.accept(RateLimitHeader.DEGRADED.headerName(), RateLimitHeader.DEGRADED_VALUE);
		}
	}

	/**
	 * {@code RateLimit}'s {@code t}: the seconds until the policy makes more quota
	 * available (draft-ietf-httpapi-ratelimit-headers, which for a response with
	 * {@code Retry-After} wants the same moment): for a refusing bound its retry; for one
	 * with room the next moment its remaining grows (a fixed window's or a lease's reset,
	 * a sliding window's oldest bucket ageing out, a bucket's next token); 0 for a
	 * sliding window or a token bucket that is whole. {@code X-RateLimit-Reset} keeps
	 * saying when a window is whole again.
	 */
	private static long untilMoreQuota(BoundVerdict verdict, long now) {
		return Seconds.ceil(
				(verdict.retryAtMillis() == Long.MAX_VALUE) ? verdict.waitMillis(now) : verdict.retryAfterMillis(now));
	}

	/**
	 * The 429 of a refused decision: {@code Retry-After}, the counters of the refusing
	 * bound, and the problem body.
	 */
	public ProblemResponse refusal(Decision decision) {
		BoundVerdict refusing = decision.refusingBound()
			.orElseThrow(() -> new IllegalArgumentException("not a refusal: " + decision));
		long retryAfter = decision.retryAfterSeconds();
		String message = refusing.concurrency()
				? "Budget '" + decision.budget() + "' allows " + refusing.limit()
						+ " expensive requests in flight at once; retry after " + retryAfter + " seconds."
				: refusing.countsRequests()
						? "Budget '" + decision.budget() + "' allows " + refusing.limit() + " requests per "
								+ refusing.name() + "; retry after " + retryAfter + " seconds."
						: "Budget '" + decision.budget() + "' allows " + refusing.limit() + " " + refusing.unit()
								+ " in window '" + refusing.name() + "'; retry after " + retryAfter + " seconds.";
		ProblemResponse problem = ProblemResponse.of(429, "Too Many Requests")
			.detail(message)
			.with(ProblemMember.ERROR.member(), ERROR_CODE)
			.with(ProblemMember.MESSAGE.member(), message)
			.retryAfter(retryAfter)
			.with(ProblemMember.LIMIT.member(), refusing.limit())
			.with(ProblemMember.REMAINING.member(), refusing.remaining())
			.with(ProblemMember.RESET_TIME.member(),
					Instant.ofEpochSecond(Seconds.ceil(refusing.resetAtMillis())).toString())
			.with(ProblemMember.BUDGET.member(), decision.budget())
			.with(ProblemMember.BOUND.member(), refusing.name());
		if (!refusing.countsRequests()) {
			problem.with(ProblemMember.UNIT.member(), refusing.unit());
		}
		if (ietfHeaders) {
			problem.type(QUOTA_EXCEEDED_TYPE)
				.with(ProblemMember.VIOLATED_POLICIES.member(), violatedPolicies(decision));
		}
		counters(decision, requestWindow(decision, refusing.concurrency() ? decision.bindingWindow() : refusing),
				refusing, problem::header);
		return problem;
	}

	/** The 503 of a budget that fails closed while the store cannot answer. */
	public ProblemResponse unavailable(StoreUnavailableException failure) {
		long retryAfter = failure.retryAfterSeconds();
		String message = "Budget '" + failure.budget() + "' refuses requests while the rate-limit store cannot "
				+ "answer; retry after " + retryAfter + " seconds.";
		return ProblemResponse.of(503, "Service Unavailable")
			.detail(message)
			.with(ProblemMember.ERROR.member(), "rate_limit_store_unavailable")
			.with(ProblemMember.MESSAGE.member(), message)
			.retryAfter(retryAfter)
			.with(ProblemMember.BUDGET.member(), failure.budget());
	}

	/**
	 * The {@code violated-policies} member of draft-ietf-httpapi-ratelimit-headers: the
	 * names of the refusing bounds as they appear in {@code RateLimit-Policy}, the
	 * concurrency bound included.
	 */
	private static List<String> violatedPolicies(Decision decision) {
		List<String> names = new ArrayList<>();
		for (BoundVerdict verdict : decision.verdicts()) {
			if (verdict.refused()) {
				names.add(verdict.name());
			}
		}
		return names;
	}

}
