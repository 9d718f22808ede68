package dev.limiter.servlet;

import java.util.List;
import java.util.function.Consumer;

import dev.limiter.core.Decision;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells every {@link RateLimitObserver} of each request; one failing observer neither
 * stops the others nor the request.
 */
final class RateLimitObservers {

	private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

	private final List<RateLimitObserver> observers;

	RateLimitObservers(List<RateLimitObserver> observers) {
		this.observers = List.copyOf(observers);
	}

	void exempt(RoutePolicy route) {
		each(observer -> observer.onExempt(route));
	}

	void decided(RoutePolicy route, Decision decision, boolean shadowRefused, long storeNanos) {
		RateLimitOutcome outcome = decision.allowed() ? RateLimitOutcome.ALLOWED
				: shadowRefused ? RateLimitOutcome.SHADOW_REFUSED : RateLimitOutcome.REFUSED;
		each(observer -> observer.onDecision(route, decision, outcome, storeNanos));
	}

	void released(String budget) {
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
