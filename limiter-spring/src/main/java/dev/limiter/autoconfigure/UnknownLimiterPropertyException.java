package dev.limiter.autoconfigure;

/**
 * A key under {@code limiter.*} binds to no limiter property: a typo in a configuration
 * file, a {@code LIMITER_*} environment variable or a {@code limiter.*} system property.
 */
public class UnknownLimiterPropertyException extends InvalidLimiterConfigurationException {

	private final String source;

	private final String variable;

	UnknownLimiterPropertyException(String property, String reason) {
		super(property, reason);
		this.source = "'" + property + "'";
		this.variable = null;
	}

	private UnknownLimiterPropertyException(String source, String variable, String property, String reason) {
		super("Invalid limiter configuration: " + source + " " + reason, property, reason);
		this.source = source;
		this.variable = variable;
	}

	/**
	 * An environment variable, named as it is set, that Spring Boot reads as
	 * {@code property}.
	 */
	static UnknownLimiterPropertyException environmentVariable(String variable, String property, String reason) {
		return new UnknownLimiterPropertyException(
				"environment variable '" + variable + "' (read as '" + property + "')", variable, property, reason);
	}

	/** A JVM system property. */
	static UnknownLimiterPropertyException systemProperty(String property, String reason) {
		return new UnknownLimiterPropertyException("system property '" + property + "'", null, property, reason);
	}

	/**
	 * What the key is, as the message names it: the property, or the environment variable
	 * or system property that set it.
	 */
	public String getSource() {
		return source;
	}

	/** The environment variable that set the key, or {@code null}. */
	public String getVariable() {
		return variable;
	}

}
