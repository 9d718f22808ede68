package dev.limiter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an invalid {@code limiter.*} property into a start-up report that names it and
 * says what to do.
 */
class InvalidLimiterConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLimiterConfigurationException> {

	/**
	 * Where a user of the jar finds every property: the metadata the jar carries, which
	 * IDEs read.
	 */
	static final String WHERE_PROPERTIES_ARE_LISTED = "Every limiter property, with its default and meaning, is "
			+ "listed in the configuration metadata of limiter-spring (META-INF/spring-configuration-metadata.json "
			+ "in its jar), which your IDE completes as you type 'limiter.'.";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLimiterConfigurationException cause) {
		if (cause instanceof UnknownLimiterPropertyException unknown) {
			return new FailureAnalysis(sentence(capitalized(unknown.getSource()) + " " + cause.getReason()),
					action(unknown) + " " + WHERE_PROPERTIES_ARE_LISTED, cause);
		}
		return new FailureAnalysis(
				sentence("The limiter property '" + cause.getProperty() + "' is invalid: it " + cause.getReason()),
				"Fix '" + cause.getProperty() + "' in your configuration. " + WHERE_PROPERTIES_ARE_LISTED, cause);
	}

	private static String action(UnknownLimiterPropertyException unknown) {
		if (unknown.getVariable() != null) {
			return "Fix or remove the environment variable '" + unknown.getVariable() + "'; if your platform sets "
					+ "LIMITER_* variables for something else, set limiter.config-check.environment=false.";
		}
		return "Fix or remove " + unknown.getSource() + " in your configuration.";
	}

	/** The text, ending in one full stop unless it already ends in punctuation. */
	private static String sentence(String text) {
		return text.matches("(?s).*[.?!]") ? text : text + ".";
	}

	private static String capitalized(String text) {
		return Character.toUpperCase(text.charAt(0)) + text.substring(1);
	}

}
