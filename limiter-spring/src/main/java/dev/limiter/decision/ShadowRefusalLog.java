package dev.limiter.decision;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.web.KeyValueLog;
import dev.limiter.web.RateLimitHeader;

/**
 * Logs shadow refusals at INFO, at most one line per budget and bound every
 * {@value #INTERVAL_MILLIS} ms with the number of refusals since the previous line:
 * visible while rolling out, without one line per request. Never logs a key.
 */
public final class ShadowRefusalLog {

	static final long INTERVAL_MILLIS = 10_000;

	private final KeyValueLog logger;

	private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

	/**
	 * @param adapter the web adapter whose logger tells of the refusals let through
	 */
	public ShadowRefusalLog(Class<?> adapter) {
		this.logger = KeyValueLog.of(adapter);
	}

	public void refused(Decision decision, RoutePolicy route) {
		String bound = decision.refusingBound().map(BoundVerdict::name).orElse("none");
		Tally tally = tallies.computeIfAbsent(decision.budget() + "/" + bound, k -> new Tally());
		long count = tally.count.incrementAndGet();
		long now = System.currentTimeMillis();
		long next = tally.nextLogAt.get();
		if (now >= next && tally.nextLogAt.compareAndSet(next, now + INTERVAL_MILLIS)) {
			tally.count.addAndGet(-count);
			String pattern = (route.pattern() == null) ? RouteScopedKeys.UNMATCHED : route.pattern();
			logger.info(
					"Shadow mode: budget '" + decision.budget() + "' would have refused " + count
							+ " request(s) on bound '" + bound + "' (latest route " + pattern + ", retry after "
							+ decision.retryAfterSeconds() + " s); admitted with " + RateLimitHeader.SHADOW.headerName()
							+ ": refused",
					"budget", decision.budget(), "bound", bound, "refusals", count, "route", pattern,
					"retryAfterSeconds", decision.retryAfterSeconds());
		}
	}

	private static final class Tally {

		final AtomicLong count = new AtomicLong();

		final AtomicLong nextLogAt = new AtomicLong();

	}

}
