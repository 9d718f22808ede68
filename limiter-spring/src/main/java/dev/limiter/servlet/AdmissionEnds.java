package dev.limiter.servlet;

import java.time.Clock;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.web.RequestEnd;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What an admitted request hands back when it ends, once, however it ends (returned,
 * threw, timed out, client gone): its lease (renewed until then) and the settlement of
 * what it reserved in units other than requests. Both go to the store off the response
 * path; a failure is logged or counted, never thrown at the response.
 */
final class AdmissionEnds {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private final RateLimitStore store;

	private final Clock clock;

	private final RateLimitObservers observers;

	private final LeaseRenewer leaseRenewer;

	AdmissionEnds(RateLimitStore store, Clock clock, RateLimitObservers observers, LeaseRenewer leaseRenewer) {
		this.store = store;
		this.clock = clock;
		this.observers = observers;
		this.leaseRenewer = leaseRenewer;
	}

	/**
	 * The end of an admitted request, {@code null} when it holds nothing to hand back;
	 * starts renewing its lease, and gives the request the {@link RateLimitUsage} its
	 * handler reports to when it reserved units.
	 */
	RequestEnd of(HttpServletRequest request, Budget budget, Decision decision, Reservation reservation) {
		return of(request, budget, decision, reservation, null);
	}

	/**
	 * As {@link #of(HttpServletRequest, Budget, Decision, Reservation)}, telling
	 * {@code followed} (when not {@code null}) of the lease's release and the settlement.
	 */
	RequestEnd of(HttpServletRequest request, Budget budget, Decision decision, Reservation reservation,
			InstrumentedDecision followed) {
		Lease lease = decision.withLeaseIssuedBy(store).lease().orElse(null);
		if (lease == null && reservation == null) {
			return null;
		}
		Runnable stopRenewing = (lease != null) ? LeaseRenewer.keepUntilStopped(leaseRenewer, lease, budget) : null;
		RateLimitUsage usage = null;
		if (reservation != null) {
			// a report after the end settles nothing: counted, never lost silently
			usage = new RateLimitUsage((unit, amount) -> observers.reportedAfterEnd(budget, unit));
			request.setAttribute(RateLimitUsage.ATTRIBUTE, usage);
		}
		RateLimitUsage reported = usage;
		return RequestEnd.of(() -> {
			try {
				if (lease != null) {
					stopRenewing.run();
					release(lease, followed);
				}
			}
			finally {
				if (reservation != null) {
					settle(reservation, reported, followed);
				}
			}
		});
	}

	void release(Lease lease) {
		release(lease, null);
	}

	private void release(Lease lease, InstrumentedDecision followed) {
		InstrumentedDecision.AfterResponse ending = (followed != null)
				? followed.afterResponse(InstrumentedDecision.LEASE_RELEASE, lease.budget())
				: InstrumentedDecision.AfterResponse.NONE;
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
	 * lock); a failure is counted, never retried, never thrown at the response.
	 */
	private void settle(Reservation reservation, RateLimitUsage usage, InstrumentedDecision followed) {
		Map<String, Long> reported = usage.close().orElse(Map.of());
		Settlement settlement = reservation.settle(reported).orElse(null);
		if (settlement == null) {
			return;
		}
		long now = clock.millis();
		String budget = reservation.budget().name();
		InstrumentedDecision.AfterResponse ending = (followed != null)
				? followed.afterResponse(InstrumentedDecision.SETTLEMENT, budget)
				: InstrumentedDecision.AfterResponse.NONE;
		try {
			observers.notCounted(reservation.budget(), reported.keySet());
			observers.settled(reservation, settlement, now);
			if (settlement.changesAnything()) {
				store.settle(settlement, now).whenComplete((done, failure) -> {
					if (failure != null) {
						observers.settlementFailed(budget, failure);
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

}
