/**
 * Spring Boot wiring, one concern: the request-body bound's auto-configuration; the Boot
 * 3 starter adds Tomcat's {@code Expect: 100-continue} timing under that bound to this
 * package.
 *
 * <p>
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.autoconfigure.web;
