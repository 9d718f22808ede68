package dev.limiter.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.decision.StoreDecisions;
import dev.limiter.quota.QuotaReport;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.web.ProblemResponse;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers {@code GET} at the quota endpoint's path with the authenticated caller's own
 * {@link QuotaReport} ({@code Cache-Control: no-store}); an anonymous caller gets a 401
 * problem. The endpoint is bounded per caller by its own budget ({@value #BUDGET_NAME}),
 * refused with the response writer's usual 429. It runs before the rate-limit filter and
 * answers itself, so reading the quota spends nothing of it.
 */
public class QuotaEndpointFilter extends OncePerRequestFilter {

	/** The name of the endpoint's own budget, in its 429s and the store. */
	public static final String BUDGET_NAME = QuotaReport.BUDGET_NAME;

	private final String path;

	private final QuotaReport report;

	private final KeyResolver keyResolver;

	private final RateLimitResponseWriter responseWriter;

	private final Budget bound;

	private final StoreDecisions decisions;

	/**
	 * @param perMinute how many times a caller may read its quota a minute
	 */
	public QuotaEndpointFilter(String path, QuotaReport report, KeyResolver keyResolver, RateLimitStore store,
			RateLimitResponseWriter responseWriter, Clock clock, int perMinute) {
		this.path = path;
		this.report = report;
		this.keyResolver = keyResolver;
		this.responseWriter = responseWriter;
		this.bound = QuotaReport.bound(perMinute);
		this.decisions = new StoreDecisions(store, clock, QuotaEndpointFilter.class.getName());
	}

	/** The endpoint's own budget: one window of {@code limit} a minute. */
	public Budget bound() {
		return bound;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"GET".equals(request.getMethod())
				|| !path.equals(request.getRequestURI().substring(request.getContextPath().length()));
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		CallerKey caller = keyResolver.resolve(request);
		if (!caller.authenticated()) {
			ProblemResponse.of(401, "Unauthorized")
				.detail("The quota endpoint answers an authenticated caller only.")
				.writeTo(response);
			return;
		}
		try (RequestStoreTime.Scope storeTime = RequestStoreTime.open()) {
			Decision decision = decisions.take(bound, caller.value(), false, null);
			if (!decision.allowed()) {
				responseWriter.writeRefusal(request, response, decision);
				return;
			}
			byte[] body = report.of(caller).toJson().getBytes(StandardCharsets.UTF_8);
			response.setStatus(200);
			response.setHeader("Cache-Control", "no-store");
			response.setContentType("application/json");
			response.setContentLength(body.length);
			response.getOutputStream().write(body);
		}
		catch (StoreUnavailableException unavailable) {
			responseWriter.writeUnavailable(request, response, unavailable);
		}
		catch (RateLimitStoreException failure) {
			// a store without the fail-open wrapper cannot read the counters: a 503 with
			// the contract's body, never a 500
			responseWriter.writeUnavailable(request, response,
					new StoreUnavailableException(bound.name(), 1000, failure));
		}
	}

}
