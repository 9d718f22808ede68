package dev.limiter.routes;

import java.util.List;

/**
 * The handlers and the limiter's rules do not fit together: an annotation names an
 * unknown budget, an exemption has no reason, or (with
 * {@code limiter.inventory.strict=true}) a handler falls to the default budget implicitly
 * or a rule matches no handler. Start-up stops and every problem is listed.
 */
public class RouteInventoryException extends RuntimeException {

	private final List<String> problems;

	public RouteInventoryException(List<String> problems) {
		super("Limiter route inventory: " + String.join("; ", problems));
		this.problems = List.copyOf(problems);
	}

	public RouteInventoryException(String problem) {
		this(List.of(problem));
	}

	/**
	 * One line per problem, each naming where it was written (a property or
	 * Class#method).
	 */
	public List<String> getProblems() {
		return problems;
	}

}
