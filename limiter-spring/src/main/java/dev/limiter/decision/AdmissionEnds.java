package dev.limiter.decision;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.spring.RateLimitUsage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What an admitted request hands back when it ends, once, however it ends (returned,
 * threw, timed out, client gone, cancelled): its lease (renewed until then) and the
 * settlement of what it reserved in units other than requests. Both go to the store off
 * the response path; a failure is logged or counted, never thrown at the response. Each
 * web adapter calls {@link End#run} where its stack says the request ended.
 */
public final class AdmissionEnds {

	private final Log logger;

	private final RateLimitStore store;

	private final Clock clock;

	private final RateLimitObservers observers;

	private final LeaseRenewer leaseRenewer;

	/**
	 * @param adapter the web adapter whose logger tells of a release or settlement that
	 * failed
	 */
	public AdmissionEnds(RateLimitStore store, Clock clock, RateLimitObservers observers, LeaseRenewer leaseRenewer,
			Class<?> adapter) {
		this.store = store;
		this.clock = clock;
		this.observers = observers;
		this.leaseRenewer = leaseRenewer;
		this.logger = LogFactory.getLog(adapter);
	}

	/**
	 * The end of an admitted request, {@code null} when it holds nothing to hand back;
	 * starts renewing its lease, and hands {@code usageSink} the {@link RateLimitUsage}
	 * its handler reports to when it reserved units.
	 * @param followed told of the lease's release and the settlement; {@code null}: none
	 * @param principalName the request's authenticated principal's name, for the
	 * thresholds its settlement reaches; {@code null} when none
	 */
	public End of(Budget budget, Decision decision, Reservation reservation, AfterResponseWork followed,
			Consumer<RateLimitUsage> usageSink, String principalName) {
		Lease lease = decision.withLeaseIssuedBy(store).lease().orElse(null);
		if (lease == null && reservation == null) {
			return null;
		}
		Runnable stopRenewing = (lease != null) ? LeaseRenewer.keepUntilStopped(leaseRenewer, lease, budget) : null;
		RateLimitUsage usage = null;
		if (reservation != null) {
			// a report after the end settles nothing: counted, never lost silently
			usage = new RateLimitUsage((unit, amount) -> observers.reportedAfterEnd(budget, unit));
			usageSink.accept(usage);
		}
		RateLimitUsage reported = usage;
		AfterResponseWork work = (followed != null) ? followed : AfterResponseWork.NONE;
		return new End(() -> {
			try {
				if (lease != null) {
					stopRenewing.run();
					release(lease, work);
				}
			}
			finally {
				if (reservation != null) {
					settle(reservation, reported, work, principalName);
				}
			}
		});
	}

	/** Hands back a lease the request will not use (its admission was overruled). */
	public void release(Lease lease) {
		release(lease, AfterResponseWork.NONE);
	}

	private void release(Lease lease, AfterResponseWork followed) {
		AfterResponseWork.Done ending = followed.begin(AfterResponseWork.LEASE_RELEASE, lease.budget());
		RuntimeException failed = null;
		try {
			lease.release(clock.millis());
		}
		catch (RuntimeException ex) {
			failed = ex;
			logger.warn("Could not release a lease of budget '" + lease.budget() + "' on store '" + store.name()
					+ "'; it expires by itself: " + ex);
		}
		finally {
			observers.released(lease.budget());
			ending.done(failed);
		}
	}

	/**
	 * Settles what {@code usage} reported against {@code reservation}, once: sent to the
	 * store without waiting (the in-process store applies it at once, under the key's
	 * lock); a failure is counted, never retried, never thrown at the response. The
	 * thresholds the store says it reached go to the observers when its answer arrives.
	 */
	private void settle(Reservation reservation, RateLimitUsage usage, AfterResponseWork followed,
			String principalName) {
		Map<String, Long> reported = usage.close().orElse(Map.of());
		Settlement settlement = reservation.settle(reported).orElse(null);
		if (settlement == null) {
			return;
		}
		long now = clock.millis();
		String budget = reservation.budget().name();
		AfterResponseWork.Done ending = followed.begin(AfterResponseWork.SETTLEMENT, budget);
		try {
			observers.notCounted(reservation.budget(), reported.keySet());
			observers.settled(reservation, settlement, now);
			if (settlement.changesAnything()) {
				store.settle(settlement, now).whenComplete((crossings, failure) -> {
					if (failure != null) {
						observers.settlementFailed(budget, failure);
					}
					else {
						observers.settlementCrossed(settlement, crossings, principalName);
					}
					ending.done(failure);
				});
			}
			else {
				ending.done(null);
			}
		}
		catch (RuntimeException ex) {
			ending.done(ex);
			observers.settlementFailed(budget, ex);
			logger.warn("Could not settle a reservation of budget '" + budget + "' on store '" + store.name()
					+ "'; its estimate stays counted: " + ex);
		}
	}

	/**
	 * The end of one admitted request: its work runs at the first {@link #run}, never
	 * again.
	 */
	public static final class End implements Runnable {

		private final Runnable work;

		private final AtomicBoolean ended = new AtomicBoolean();

		End(Runnable work) {
			this.work = Objects.requireNonNull(work, "work");
		}

		@Override
		public void run() {
			if (ended.compareAndSet(false, true)) {
				work.run();
			}
		}

		/** Whether the end ran. */
		public boolean ended() {
			return ended.get();
		}

	}

}
