package dev.limiter.resilience;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.StoreModeListener;
import dev.limiter.web.KeyValueLog;
import org.apache.commons.logging.Log;

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

	/**
	 * Where both lines go when given as a commons-logging {@code Log}, else {@code null}.
	 */
	private final Log log;

	/** Where both lines go with their facts as key-value pairs, else {@code null}. */
	private final KeyValueLog facts;

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
		this(Objects.requireNonNull(log, "log"), null, failedMessage, recoveredMessage);
	}

	/**
	 * Both lines on logger {@code loggerName}, with their facts as key-value pairs
	 * ({@code store}, {@code mode}, and on the WARN {@code reason} and {@code failure}):
	 * fields under Spring Boot's structured logging.
	 * @param loggerName the logger's name
	 * @param failedMessage as above
	 * @param recoveredMessage as above
	 */
	public OutageLog(String loggerName, String failedMessage, String recoveredMessage) {
		this(null, KeyValueLog.named(loggerName), failedMessage, recoveredMessage);
	}

	private OutageLog(Log log, KeyValueLog facts, String failedMessage, String recoveredMessage) {
		this.log = log;
		this.facts = facts;
		this.failedMessage = Objects.requireNonNull(failedMessage, "failedMessage");
		this.recoveredMessage = Objects.requireNonNull(recoveredMessage, "recoveredMessage");
	}

	/**
	 * The log of the fail-open store's changes of mode, on logger {@code dev.limiter}
	 * (docs/operations.md).
	 */
	public static OutageLog storeModes() {
		return new OutageLog("dev.limiter",
				"Rate limiter is DEGRADED: the {store} store cannot answer; deciding with the in-process fallback, "
						+ "exact for this instance only, until it answers again: ",
				"Rate limiter recovered: the {store} store answers again; its counters are authoritative");
	}

	/** The store failed; logs the WARN unless an outage is already open. */
	@Override
	public void degraded(String store, Throwable cause) {
		if (failing.compareAndSet(false, true)) {
			String message = failedMessage.replace("{store}", store) + describe(cause);
			if (facts != null) {
				facts.warn(message, "store", store, "mode", "degraded", "reason", reason(cause), "failure",
						describe(cause));
			}
			else {
				log.warn(message);
			}
		}
	}

	/** The store answered; logs the INFO if this ends an outage. */
	@Override
	public void recovered(String store) {
		if (failing.compareAndSet(true, false)) {
			String message = recoveredMessage.replace("{store}", store);
			if (facts != null) {
				facts.info(message, "store", store, "mode", "authoritative");
			}
			else {
				log.info(message);
			}
		}
	}

	/** Whether an outage is open. */
	public boolean failing() {
		return failing.get();
	}

	/** The root cause's simple class name: a short, bounded reason. */
	static String reason(Throwable cause) {
		if (cause == null) {
			return "unknown";
		}
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName();
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
