package dev.limiter.routes;

/** Where a handler's policy was written, highest precedence first. */
public enum RouteSource {

	/** A {@code limiter.routes} rule. */
	YAML_RULE("yaml rule"),

	/** {@code @RateLimited} or {@code @RateLimitExempt} on the handler method. */
	METHOD_ANNOTATION("method annotation"),

	/** {@code @RateLimited} or {@code @RateLimitExempt} on the controller class. */
	CLASS_ANNOTATION("class annotation"),

	/** Nothing: the handler falls to {@code limiter.default-budget} implicitly. */
	DEFAULT("default");

	private final String label;

	RouteSource(String label) {
		this.label = label;
	}

	/** How the source is shown in the inventory log and the actuator endpoint. */
	public String label() {
		return label;
	}

}
