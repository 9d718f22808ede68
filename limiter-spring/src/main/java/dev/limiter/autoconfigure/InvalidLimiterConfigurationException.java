package dev.limiter.autoconfigure;

/**
 * A {@code limiter.*} property holds a value the limiter cannot work with; start-up
 * stops.
 */
public class InvalidLimiterConfigurationException extends RuntimeException {

	private final String property;

	private final String reason;

	public InvalidLimiterConfigurationException(String property, String reason) {
		this("Invalid limiter configuration: '" + property + "' " + reason, property, reason);
	}

	protected InvalidLimiterConfigurationException(String message, String property, String reason) {
		super(message);
		this.property = property;
		this.reason = reason;
	}

	/**
	 * The full name of the offending property, such as
	 * {@code limiter.budgets.standard.windows.minute.limit}.
	 */
	public String getProperty() {
		return property;
	}

	public String getReason() {
		return reason;
	}

}
