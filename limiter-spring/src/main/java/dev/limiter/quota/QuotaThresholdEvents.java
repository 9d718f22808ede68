package dev.limiter.quota;

import java.security.Principal;
import java.time.Instant;

import dev.limiter.core.Decision;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RoutePolicy;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Publishes a {@link QuotaThresholdEvent} for each {@code notify-at} threshold a decision
 * reached ({@link Decision#crossings()}): an observer of every decision, so no filter
 * knows of it. The store decided the crossing; a degraded decision's crossings (the
 * fallback's, this instance's alone) are not published.
 */
public final class QuotaThresholdEvents implements RateLimitObserver {

	private final ApplicationEventPublisher publisher;

	public QuotaThresholdEvents(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void onDecision(RoutePolicy route, Decision decision, RateLimitOutcome outcome, long storeNanos) {
		if (decision.crossings().isEmpty() || decision.degraded()) {
			return;
		}
		String principal = principalName();
		for (ThresholdCrossing crossing : decision.crossings()) {
			publisher.publishEvent(new QuotaThresholdEvent(this, crossing.budget(), crossing.window(), crossing.key(),
					principal, crossing.percent(), crossing.usage(), crossing.limit(),
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

}
