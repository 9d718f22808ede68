/**
 * The {@code limiter} health component on Spring Boot 3's health types (the Boot 4
 * starter's twin is {@code dev.limiter.boot4.actuate}).
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}; the former name
 * {@code dev.limiter.autoconfigure.actuate.LimiterHealthContributorAutoConfiguration} is
 * replaced by it through {@code AutoConfiguration.replacements}) and the health JSON
 * (documented in {@code docs/}); the rest is internal.
 */
package dev.limiter.boot3.actuate;
