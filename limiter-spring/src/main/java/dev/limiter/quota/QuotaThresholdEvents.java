package dev.limiter.quota;

import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

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
 * Handing a settlement's events to that thread takes no lock (a lock-free queue, a
 * counter for its bound, an unpark), so an event loop that hands them over never waits,
 * even when many hand over at once.
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

	/** The settlements' events waiting for the publishing thread, oldest first. */
	private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();

	/** How many events {@link #pending} holds, for its bound. */
	private final AtomicInteger pendingCount = new AtomicInteger();

	private final Thread publishing;

	private volatile boolean closed;

	public QuotaThresholdEvents(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
		this.publishing = new Thread(this::publishPending, "limiter-quota-events");
		this.publishing.setDaemon(true);
		this.publishing.start();
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
		if (closed || !takePendingPlace()) {
			logger.warn("Quota threshold events dropped: " + crossings.size() + " reached by a settlement of budget '"
					+ crossings.get(0).budget() + "', with " + MAX_PENDING
					+ " already waiting for a listener (or the application is closing)");
			return;
		}
		pending.add(() -> publish(crossings, principalName));
		LockSupport.unpark(publishing);
	}

	private boolean takePendingPlace() {
		if (pendingCount.incrementAndGet() <= MAX_PENDING) {
			return true;
		}
		pendingCount.decrementAndGet();
		return false;
	}

	/**
	 * The publishing thread: runs what is pending, parks while nothing is (an unpark that
	 * comes between the empty poll and the park leaves a permit, so the park returns at
	 * once).
	 */
	private void publishPending() {
		while (true) {
			Runnable next = pending.poll();
			if (next != null) {
				pendingCount.decrementAndGet();
				try {
					next.run();
				}
				catch (RuntimeException ex) {
					logger.warn("A quota threshold listener failed", ex);
				}
			}
			else if (closed) {
				return;
			}
			else {
				LockSupport.park(this);
			}
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
		closed = true;
		LockSupport.unpark(publishing);
		try {
			publishing.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
