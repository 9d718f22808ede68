/**
 * Spring Boot wiring, one concern: limits changed without a restart. With Spring Cloud's
 * context on the class path, a change of {@code limiter.*} is judged as start-up judges
 * it and the new budgets, options and routes are put in force at once, or refused with
 * start-up's message while the rules in force stay.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}) and on the behaviour documented in {@code
 * docs/configuration.md}; the classes are internal.
 */
package dev.limiter.autoconfigure.refresh;
