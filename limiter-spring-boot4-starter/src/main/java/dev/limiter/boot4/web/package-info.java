/**
 * Tomcat's {@code Expect: 100-continue} timing under {@code limiter.max-request-body} on
 * Boot 4's moved Tomcat types, the twin of the Boot 3 starter's.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for
 * {@code spring.autoconfigure.exclude}); the rest is internal.
 */
package dev.limiter.boot4.web;
