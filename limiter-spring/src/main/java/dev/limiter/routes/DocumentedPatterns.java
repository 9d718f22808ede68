package dev.limiter.routes;

/**
 * The path the route inventory (and the OpenAPI document) shows for a handler whose
 * registered pattern says less than its documented path: the actuator can register a
 * literal path segment of an operation only as a selector, so the limiter endpoint's
 * {@code /actuator/limiter/keys/{keyHash}} is registered as
 * {@code /actuator/limiter/{segment}/{keyHash}}. Requests still match the registered
 * pattern; only what is shown changes.
 */
@FunctionalInterface
public interface DocumentedPatterns {

	/** Every pattern shown as registered. */
	DocumentedPatterns AS_REGISTERED = registered -> registered;

	/**
	 * @param registered a handler pattern as its mapping registered it
	 * @return the pattern to show, {@code registered} when nothing documents another
	 */
	String documented(String registered);

}
