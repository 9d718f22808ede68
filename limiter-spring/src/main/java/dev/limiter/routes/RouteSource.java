package dev.limiter.routes;

/**
 * Where a handler's policy was written, highest precedence first. A
 * {@code limiter.routes} rule is named by the kind of property source it was read from.
 */
public enum RouteSource {

	/** A {@code limiter.routes} rule written in a YAML file. */
	YAML_RULE("yaml rule"),

	/** A {@code limiter.routes} rule written in a {@code .properties} file. */
	PROPERTIES_RULE("properties rule"),

	/** A {@code limiter.routes} rule from environment variables. */
	ENVIRONMENT_RULE("environment rule"),

	/**
	 * A {@code limiter.routes} rule from any other property source (system properties,
	 * the command line, a configuration server, test properties).
	 */
	RULE("rule"),

	/** {@code @RateLimited} or {@code @RateLimitExempt} on the handler method. */
	METHOD_ANNOTATION("method annotation"),

	/** {@code @RateLimited} or {@code @RateLimitExempt} on the controller class. */
	CLASS_ANNOTATION("class annotation"),

	/** A Spring Cloud Gateway route's {@code Limiter} filter, naming its budget. */
	ROUTE_FILTER("route filter"),

	/**
	 * The limiter's own policy for static resources and the API documentation's
	 * endpoints: exempt unless {@code limiter.count-static-resources} is {@code true}.
	 */
	BUILT_IN("built-in"),

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
