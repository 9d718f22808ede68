package dev.limiter.quota;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Decision;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Publishes a {@link QuotaThresholdEvent} for each {@code notify-at} threshold a decision
 * ({@link Decision#crossings()}) or a settlement reached: an observer of every decision
 * and settlement, so no filter knows of it. The store decided the crossing; a degraded
 * decision's crossings (the fallback's, this instance's alone) are not published. A
 * decision's events are published on its request thread; a settlement's, whose answer
 * arrives after the request on whatever thread the store answers on (a Redis client's
 * event loop), on this publisher's own thread, so that no listener runs on an event loop.
 */
public final class QuotaThresholdEvents implements RateLimitObserver, AutoCloseable {

	/**
	 * The settlements' events waiting for the publishing thread at most: beyond it a
	 * listener is stuck, and an event is dropped with a WARN.
	 */
	static final int MAX_PENDING = 4_096;

	/** How long {@link #close} waits for the events still waiting to be published. */
	static final long CLOSE_WAIT_SECONDS = 5;

	private static final Log logger = LogFactory.getLog(QuotaThresholdEvents.class);

	private final ApplicationEventPublisher publisher;

	private final ExecutorService settlementEvents = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new LinkedBlockingQueue<>(MAX_PENDING), (task) -> {
				Thread thread = new Thread(task, "limiter-quota-events");
				thread.setDaemon(true);
				return thread;
			});

	public QuotaThresholdEvents(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		if (decision.crossings().isEmpty() || decision.degraded()) {
			return;
		}
		publish(decision.crossings(), principalName());
	}

	@Override
	public void onSettlementCrossings(List<ThresholdCrossing> crossings, String principalName) {
		try {
			settlementEvents.execute(() -> publish(crossings, principalName));
		}
		catch (RejectedExecutionException ex) {
			logger.warn("Quota threshold events dropped: " + crossings.size() + " reached by a settlement of budget '"
					+ crossings.get(0).budget() + "', with " + MAX_PENDING
					+ " already waiting for a listener (or the application is closing)");
		}
	}

	private void publish(List<ThresholdCrossing> crossings, String principalName) {
		for (ThresholdCrossing crossing : crossings) {
			publisher.publishEvent(new QuotaThresholdEvent(this, crossing.budget(), crossing.window(), crossing.key(),
					principalName, crossing.percent(), crossing.usage(), crossing.limit(),
					Instant.ofEpochMilli(crossing.periodEndMillis())));
		}
	}

	/** The request's authenticated principal, when the request is a servlet one. */
	private static String principalName() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes instanceof ServletRequestAttributes servlet) {
			Principal principal = servlet.getRequest().getUserPrincipal();
			return (principal != null) ? principal.getName() : null;
		}
		return null;
	}

	/**
	 * Publishes what is waiting (for at most {@link #CLOSE_WAIT_SECONDS}), then stops the
	 * publishing thread.
	 */
	@Override
	public void close() {
		settlementEvents.shutdown();
		try {
			settlementEvents.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
