/**
 * Tomcat's {@code Expect: 100-continue} timing under {@code limiter.max-request-body} on
 * Spring Boot 3's Tomcat types (the Boot 4 starter's twin is
 * {@code dev.limiter.boot4.web}).
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}; the former name
 * {@code dev.limiter.autoconfigure.web.LimiterTomcatContinueAutoConfiguration} is
 * replaced by it through {@code AutoConfiguration.replacements}); the rest is internal.
 */
package dev.limiter.boot3.web;
