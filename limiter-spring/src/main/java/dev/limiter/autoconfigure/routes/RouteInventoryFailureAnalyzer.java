package dev.limiter.autoconfigure.routes;

import dev.limiter.routes.RouteInventoryException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Lists every route inventory problem at start-up, one per line, with what to do about
 * it.
 */
public class RouteInventoryFailureAnalyzer extends AbstractFailureAnalyzer<RouteInventoryException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RouteInventoryException cause) {
		StringBuilder description = new StringBuilder("The limiter's route inventory is not complete:\n");
		for (String problem : cause.getProblems()) {
			description.append("\n    - ").append(problem);
		}
		return new FailureAnalysis(description.toString(),
				"Give every handler a policy (a limiter.routes rule, @RateLimited or @RateLimitExempt(reason = ...)),"
						+ " use only budgets configured under limiter.budgets, and remove rules that match no handler"
						+ " (or set limiter.inventory.strict=false). The route inventory logged at INFO lists every handler"
						+ " with its policy and where it was written.",
				cause);
	}

}
