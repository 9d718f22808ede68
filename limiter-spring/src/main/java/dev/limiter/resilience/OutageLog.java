package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.StoreModeListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The one log of an outage: one WARN when a store stops answering and one INFO when it
 * answers again, however many requests pass in between, so that an operator alerts on the
 * first line and never drowns in one line per request. The fail-open store tells it of
 * each change of mode ({@link #degraded}, {@link #recovered}); a filter whose store is
 * not wrapped by the {@link FailurePolicy} tells it of each failure and each answer, and
 * the repeats are dropped here.
 *
 * <p>
 * The WARN names the store's own error (its root cause, line breaks removed), never the
 * circuit breaker's refusal: {@link StoreCircuitBreaker} hands the last real failure on
 * as the cause.
 */
public final class OutageLog implements StoreModeListener {

	private final Log log;

	private final String failedMessage;

	private final String recoveredMessage;

	private final AtomicBoolean failing = new AtomicBoolean();

	/**
	 * @param log where both lines go
	 * @param failedMessage the start of the WARN that opens an outage; {@code {store}}
	 * stands for the store's name, and the failure's description follows
	 * @param recoveredMessage the INFO that closes it; {@code {store}} stands for the
	 * store's name
	 */
	public OutageLog(Log log, String failedMessage, String recoveredMessage) {
		this.log = Objects.requireNonNull(log, "log");
		this.failedMessage = Objects.requireNonNull(failedMessage, "failedMessage");
		this.recoveredMessage = Objects.requireNonNull(recoveredMessage, "recoveredMessage");
	}

	/**
	 * The log of the fail-open store's changes of mode, on logger {@code dev.limiter}
	 * (docs/operations.md).
	 */
	public static OutageLog storeModes() {
		return new OutageLog(LogFactory.getLog("dev.limiter"),
				"Rate limiter is DEGRADED: the {store} store cannot answer; deciding with the in-process fallback, "
						+ "exact for this instance only, until it answers again: ",
				"Rate limiter recovered: the {store} store answers again; its counters are authoritative");
	}

	/** The store failed; logs the WARN unless an outage is already open. */
	@Override
	public void degraded(String store, Throwable cause) {
		if (failing.compareAndSet(false, true)) {
			log.warn(failedMessage.replace("{store}", store) + describe(cause));
		}
	}

	/** The store answered; logs the INFO if this ends an outage. */
	@Override
	public void recovered(String store) {
		if (failing.compareAndSet(true, false)) {
			log.info(recoveredMessage.replace("{store}", store));
		}
	}

	/** Whether an outage is open. */
	public boolean failing() {
		return failing.get();
	}

	static String describe(Throwable cause) {
		if (cause == null) {
			return "unknown failure";
		}
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getMessage();
		return root.getClass().getSimpleName() + (message == null ? "" : ": " + message.replaceAll("[\\r\\n]", " "));
	}

}
