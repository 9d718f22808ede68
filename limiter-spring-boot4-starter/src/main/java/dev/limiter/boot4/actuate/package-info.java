/**
 * The {@code limiter} health component on Boot 4's moved health types, the twin of the
 * Boot 3 starter's.
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}) and the health JSON (documented in {@code docs/}); the
 * rest is internal.
 */
package dev.limiter.boot4.actuate;
