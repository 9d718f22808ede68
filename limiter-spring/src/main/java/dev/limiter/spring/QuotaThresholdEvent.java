package dev.limiter.spring;

import java.time.Instant;
import java.util.Optional;

import org.springframework.context.ApplicationEvent;

/**
 * A key's usage of a window reached one of its {@code notify-at} thresholds: published
 * once per key, window period and threshold across every instance sharing the store (the
 * store decides the crossing in the same step as the decision or the settlement that
 * moved the count across it). A decision's is published on its request thread, before the
 * handler runs; a settlement's once the store answered it, after the response, on the
 * limiter's {@code limiter-quota-events} thread. Listen with {@code @EventListener}; a
 * listener that is slow or may fail should hand the event on ({@code @Async}, a queue):
 * it runs on the request's time, or holds up the settlements' events queued behind it.
 */
public class QuotaThresholdEvent extends ApplicationEvent {

	private final String budget;

	private final String window;

	private final String keyHash;

	private final String principalName;

	private final int thresholdPercent;

	private final long usage;

	private final long limit;

	private final Instant periodEnd;

	/**
	 * @param source what published it
	 * @param budget the budget's name
	 * @param window the window's name
	 * @param keyHash the counter key, as {@code /actuator/limiter/keys/{keyHash}} takes
	 * it (a credential's hash, never the credential)
	 * @param principalName the authenticated principal's name, {@code null} when none
	 * @param thresholdPercent the threshold reached, a percentage of the limit
	 * @param usage what the window counted once the decision or settlement was applied,
	 * in its unit
	 * @param limit the window's limit, in its unit
	 * @param periodEnd when the period the usage counts in ends: its reset
	 */
	public QuotaThresholdEvent(Object source, String budget, String window, String keyHash, String principalName,
			int thresholdPercent, long usage, long limit, Instant periodEnd) {
		super(source);
		this.budget = budget;
		this.window = window;
		this.keyHash = keyHash;
		this.principalName = principalName;
		this.thresholdPercent = thresholdPercent;
		this.usage = usage;
		this.limit = limit;
		this.periodEnd = periodEnd;
	}

	public String getBudget() {
		return budget;
	}

	public String getWindow() {
		return window;
	}

	public String getKeyHash() {
		return keyHash;
	}

	/** The authenticated principal's name, empty for an anonymous caller. */
	public Optional<String> getPrincipalName() {
		return Optional.ofNullable(principalName);
	}

	public int getThresholdPercent() {
		return thresholdPercent;
	}

	public long getUsage() {
		return usage;
	}

	public long getLimit() {
		return limit;
	}

	public Instant getPeriodEnd() {
		return periodEnd;
	}

	@Override
	public String toString() {
		return "QuotaThresholdEvent[budget=" + budget + ", window=" + window + ", key=" + keyHash + ", at="
				+ thresholdPercent + "%, usage=" + usage + "/" + limit + ", periodEnd=" + periodEnd + "]";
	}

}
