package dev.limiter.servlet;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.core.Seconds;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.web.ProblemMember;
import dev.limiter.web.ProblemResponse;
import dev.limiter.web.RateLimitHeader;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * docs/http-contract.md on the wire: {@code X-RateLimit-*} for the binding window, the
 * IETF {@code RateLimit-Policy} and {@code RateLimit} fields
 * (draft-ietf-httpapi-ratelimit-headers), and a 429 with {@code Retry-After} and an RFC
 * 9457 problem body. Everything the limiter produces itself is {@code no-store}.
 */
public class DefaultRateLimitResponseWriter implements RateLimitResponseWriter {

	public static final String ERROR_CODE = "rate_limit_exceeded";

	/**
	 * The problem type draft-ietf-httpapi-ratelimit-headers registers for a refusal that
	 * names its policies.
	 */
	public static final String QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

	private final boolean xRateLimitHeaders;

	private final boolean ietfHeaders;

	public DefaultRateLimitResponseWriter(boolean xRateLimitHeaders, boolean ietfHeaders) {
		this.xRateLimitHeaders = xRateLimitHeaders;
		this.ietfHeaders = ietfHeaders;
	}

	@Override
	public void writeCounters(HttpServletResponse response, Decision decision) {
		BoundVerdict shown = requestWindow(decision, decision.bindingWindow());
		writeCounters(response, decision, shown, shown);
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
	private void writeCounters(HttpServletResponse response, Decision decision, BoundVerdict shown,
			BoundVerdict policyShown) {
		long now = decision.decidedAtMillis();
		if (xRateLimitHeaders) {
			response.setHeader(RateLimitHeader.LIMIT.headerName(), Long.toString(shown.limit()));
			response.setHeader(RateLimitHeader.REMAINING.headerName(), Long.toString(shown.remaining()));
			response.setHeader(RateLimitHeader.RESET.headerName(), Long.toString(Seconds.ceil(shown.resetAtMillis())));
			response.setHeader(RateLimitHeader.WINDOW.headerName(),
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
			response.setHeader(RateLimitHeader.RATE_LIMIT_POLICY.headerName(), policy.toString());
			if (hasUnits(decision)) {
				// every window's remaining: a caller pacing tokens needs the tokens left,
				// whichever window binds
				StringJoiner limits = new StringJoiner(", ");
				for (BoundVerdict verdict : decision.verdicts()) {
					limits.add(RateLimitHeader.limitItem(verdict.name(), verdict.remaining(),
							untilMoreQuota(verdict, now)));
				}
				response.setHeader(RateLimitHeader.RATE_LIMIT.headerName(), limits.toString());
			}
			else {
				response.setHeader(RateLimitHeader.RATE_LIMIT.headerName(), RateLimitHeader
					.limitItem(policyShown.name(), policyShown.remaining(), untilMoreQuota(policyShown, now)));
			}
		}
		if (decision.degraded()) {
			response.setHeader(RateLimitHeader.DEGRADED.headerName(), RateLimitHeader.DEGRADED_VALUE);
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

	@Override
	public void writeRefusal(HttpServletRequest request, HttpServletResponse response, Decision decision)
			throws IOException {
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
		problem.writeKeepingHeaders(response, r -> writeCounters(r, decision,
				requestWindow(decision, refusing.concurrency() ? decision.bindingWindow() : refusing), refusing));
	}

	@Override
	public void writeUnavailable(HttpServletRequest request, HttpServletResponse response,
			StoreUnavailableException failure) throws IOException {
		long retryAfter = failure.retryAfterSeconds();
		String message = "Budget '" + failure.budget() + "' refuses requests while the rate-limit store cannot "
				+ "answer; retry after " + retryAfter + " seconds.";
		ProblemResponse.of(503, "Service Unavailable")
			.detail(message)
			.with(ProblemMember.ERROR.member(), "rate_limit_store_unavailable")
			.with(ProblemMember.MESSAGE.member(), message)
			.retryAfter(retryAfter)
			.with(ProblemMember.BUDGET.member(), failure.budget())
			.writeKeepingHeaders(response, r -> {
			});
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
