package dev.limiter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an invalid {@code limiter.*} property into a start-up report that names it and
 * says what to do.
 */
class InvalidLimiterConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLimiterConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLimiterConfigurationException cause) {
		return new FailureAnalysis(
				"The limiter property '" + cause.getProperty() + "' is invalid: it " + cause.getReason() + ".",
				"Fix '" + cause.getProperty() + "' in your configuration. See docs/configuration.md for every "
						+ "limiter property, its default and meaning.",
				cause);
	}

}
