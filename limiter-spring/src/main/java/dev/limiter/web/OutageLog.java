package dev.limiter.web;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;

/**
 * One WARN when a store starts failing a filter and one when it answers again, however
 * many requests pass in between: an operator alerts on the first line and never drowns in
 * one line per request.
 */
public final class OutageLog {

	private final Log log;

	private final String failedMessage;

	private final String recoveredMessage;

	private final AtomicBoolean failing = new AtomicBoolean();

	/**
	 * @param log where both lines go
	 * @param failedMessage the start of the line that opens an outage; the failure's
	 * description follows it
	 * @param recoveredMessage the line that closes it
	 */
	public OutageLog(Log log, String failedMessage, String recoveredMessage) {
		this.log = Objects.requireNonNull(log, "log");
		this.failedMessage = Objects.requireNonNull(failedMessage, "failedMessage");
		this.recoveredMessage = Objects.requireNonNull(recoveredMessage, "recoveredMessage");
	}

	/**
	 * The store failed; logs {@code failedMessage + failure} unless an outage is already
	 * open.
	 */
	public void failed(Object failure) {
		if (failing.compareAndSet(false, true)) {
			log.warn(failedMessage + failure);
		}
	}

	/** The store answered; logs {@code recoveredMessage} if this ends an outage. */
	public void answered() {
		if (failing.compareAndSet(true, false)) {
			log.warn(recoveredMessage);
		}
	}

	/** Whether an outage is open. */
	public boolean failing() {
		return failing.get();
	}

}
