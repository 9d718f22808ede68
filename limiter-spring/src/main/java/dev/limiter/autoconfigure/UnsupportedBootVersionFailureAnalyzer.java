package dev.limiter.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * One clear line for a Spring Boot below the supported floor, instead of a stack trace.
 */
public class UnsupportedBootVersionFailureAnalyzer
		extends AbstractFailureAnalyzer<SupportedBootVersion.UnsupportedBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure,
			SupportedBootVersion.UnsupportedBootVersionException cause) {
		return new FailureAnalysis(cause.getMessage(), "Upgrade to " + SupportedBootVersion.SUPPORTED
				+ ", or use a limiter release built for your Spring Boot line.", cause);
	}

}
