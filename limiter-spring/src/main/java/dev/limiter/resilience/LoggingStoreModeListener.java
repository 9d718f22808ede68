package dev.limiter.resilience;

import dev.limiter.core.StoreModeListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One WARN when the limiter starts deciding without its store, one INFO when the store is
 * back: an operator alerts on the first line and never drowns in one line per request.
 */
public final class LoggingStoreModeListener implements StoreModeListener {

	private static final Log logger = LogFactory.getLog("dev.limiter");

	@Override
	public void degraded(String store, Throwable cause) {
		logger.warn("Rate limiter is DEGRADED: the " + store + " store cannot answer (" + describe(cause)
				+ "); deciding with the in-process fallback, exact for this instance only, until it answers again");
	}

	@Override
	public void recovered(String store) {
		logger.info("Rate limiter recovered: the " + store + " store answers again; its counters are authoritative");
	}

	private static String describe(Throwable cause) {
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getMessage();
		return root.getClass().getSimpleName() + (message == null ? "" : ": " + message.replaceAll("[\\r\\n]", " "));
	}

}
