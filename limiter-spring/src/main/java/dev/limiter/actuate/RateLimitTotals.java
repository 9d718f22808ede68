package dev.limiter.actuate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.limiter.core.Decision;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;

/**
 * Requests and refusals per budget since start-up, for the {@code limiter} actuator
 * endpoint.
 */
public class RateLimitTotals implements RateLimitObserver {

	private final Map<String, Tally> byBudget = new ConcurrentHashMap<>();

	private final LongAdder exempt = new LongAdder();

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		Tally tally = byBudget.get(decision.budget());
		if (tally == null) {
			tally = byBudget.computeIfAbsent(decision.budget(), budget -> new Tally());
		}
		tally.requests.increment();
		if (outcome == RateLimitOutcome.REFUSED) {
			tally.refused.increment();
		}
		else if (outcome == RateLimitOutcome.SHADOW_REFUSED) {
			tally.shadowRefused.increment();
		}
	}

	@Override
	public void onExempt(RoutePolicy route) {
		exempt.increment();
	}

	/** The totals of one budget; zeros when it has seen no request. */
	public Totals of(String budget) {
		Tally tally = byBudget.get(budget);
		if (tally == null) {
			return new Totals(0, 0, 0, 0.0, 0.0);
		}
		long requests = tally.requests.sum();
		long refused = tally.refused.sum();
		long shadowRefused = tally.shadowRefused.sum();
		return new Totals(requests, refused, shadowRefused, percent(refused, requests),
				percent(shadowRefused, requests));
	}

	/** Requests let through uncounted because their route is exempt. */
	public long exempt() {
		return exempt.sum();
	}

	private static double percent(long part, long whole) {
		return whole == 0 ? 0.0 : Math.round(part * 10_000.0 / whole) / 100.0;
	}

	/**
	 * @param requests decided requests (allowed, refused and shadow-refused)
	 * @param refused requests refused (429)
	 * @param shadowRefused requests that would have been refused but were let through
	 * (shadow mode)
	 * @param refusalPercentage {@code refused / requests}, in percent, two decimals
	 * @param shadowRefusalPercentage {@code shadowRefused / requests}, in percent, two
	 * decimals
	 */
	public record Totals(long requests, long refused, long shadowRefused, double refusalPercentage,
			double shadowRefusalPercentage) {
	}

	private static final class Tally {

		final LongAdder requests = new LongAdder();

		final LongAdder refused = new LongAdder();

		final LongAdder shadowRefused = new LongAdder();

	}

}
