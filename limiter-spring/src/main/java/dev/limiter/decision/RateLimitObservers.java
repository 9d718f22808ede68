package dev.limiter.decision;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Reservation;
import dev.limiter.core.Settlement;
import dev.limiter.core.Window;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells every {@link RateLimitObserver} of each request; one failing observer neither
 * stops the others nor the request.
 */
public final class RateLimitObservers {

	private final Log logger;

	/** A settlement's delta whose window instance had passed. */
	static final String WINDOW_ENDED = "window-ended";

	/** What a report counted beyond its window's {@code max-report}. */
	static final String CLAMPED = "clamped";

	/** A report made after the request's settlement was sent. */
	static final String REPORTED_AFTER_END = "reported-after-end";

	/** A report of a unit no window of the request's budget counts. */
	static final String UNIT_NOT_COUNTED = "unit-not-counted";

	/** The window tag of a drop that no window of the budget counts. */
	static final String NO_WINDOW = "none";

	private final List<RateLimitObserver> observers;

	/**
	 * @param adapter the web adapter whose logger tells of an observer that failed
	 */
	public RateLimitObservers(List<RateLimitObserver> observers, Class<?> adapter) {
		this.observers = List.copyOf(observers);
		this.logger = LogFactory.getLog(adapter);
	}

	public void exempt(RoutePolicy route) {
		each(observer -> observer.onExempt(route));
	}

	public void decided(RoutePolicy route, Decision decision, boolean shadowRefused, long storeNanos) {
		RateLimitOutcome outcome = decision.allowed() ? RateLimitOutcome.ALLOWED
				: shadowRefused ? RateLimitOutcome.SHADOW_REFUSED : RateLimitOutcome.REFUSED;
		each(observer -> observer.onDecision(route, decision, outcome, storeNanos));
	}

	/**
	 * What a settlement did, per unit: charged beyond its estimate, or refunded; and per
	 * window whose instance passed, dropped ({@code window-ended}), per window whose
	 * report was above its {@code max-report}, clamped ({@code clamped}).
	 */
	public void settled(Reservation reservation, Settlement settlement, long nowMillis) {
		String budget = reservation.budget().name();
		Set<String> units = new HashSet<>();
		for (int i = 0; i < settlement.deltas().length; i++) {
			Window w = settlement.windows().get(i);
			long delta = settlement.deltas()[i];
			if (settlement.clamped()[i] > 0) {
				each(observer -> observer.onSettlementDropped(budget, w.name(), CLAMPED));
			}
			if (delta == 0) {
				continue;
			}
			if (!settlement.lands(i, nowMillis)) {
				each(observer -> observer.onSettlementDropped(budget, w.name(), WINDOW_ENDED));
			}
			if (units.add(w.unit())) {
				each(observer -> observer.onSettled(budget, w.unit(), Math.max(0, delta), Math.max(0, -delta)));
			}
		}
	}

	/**
	 * A report made after its request's settlement was sent, which settles nothing: per
	 * window in its unit, one {@code reported-after-end} drop (window {@code none} when
	 * no window counts the unit).
	 */
	public void reportedAfterEnd(Budget budget, String unit) {
		dropped(budget, unit, REPORTED_AFTER_END);
	}

	/**
	 * Reported units that no window of the budget counts (a selector or a definition
	 * chose a budget without them): one {@code unit-not-counted} drop each.
	 */
	public void notCounted(Budget budget, Set<String> units) {
		for (String unit : units) {
			if (budget.windows().stream().noneMatch((w) -> !w.countsRequests() && w.unit().equals(unit))) {
				dropped(budget, unit, UNIT_NOT_COUNTED);
			}
		}
	}

	/**
	 * A usage report the request's response should have carried and did not, or carried
	 * unreadable: per unit reserved, one drop with {@code reason} (what the request
	 * reserved stays counted).
	 */
	public void reportDropped(Budget budget, Set<String> units, String reason) {
		for (String unit : units) {
			dropped(budget, unit, reason);
		}
	}

	private void dropped(Budget budget, String unit, String reason) {
		boolean counted = false;
		for (Window w : budget.windows()) {
			if (!w.countsRequests() && w.unit().equals(unit)) {
				counted = true;
				each(observer -> observer.onSettlementDropped(budget.name(), w.name(), reason));
			}
		}
		if (!counted) {
			each(observer -> observer.onSettlementDropped(budget.name(), NO_WINDOW, reason));
		}
	}

	public void reserved(Reservation reservation) {
		String budget = reservation.budget().name();
		reservation.estimates().forEach((unit, amount) -> each(observer -> observer.onReserved(budget, unit, amount)));
	}

	public void settlementFailed(String budget, Throwable failure) {
		each(observer -> observer.onSettlementFailed(budget, failure));
	}

	public void released(String budget) {
		each(observer -> observer.onLeaseReleased(budget));
	}

	private void each(Consumer<RateLimitObserver> call) {
		for (RateLimitObserver observer : observers) {
			try {
				call.accept(observer);
			}
			catch (RuntimeException ex) {
				logger.warn("RateLimitObserver " + observer.getClass().getName() + " failed: " + ex);
			}
		}
	}

}
