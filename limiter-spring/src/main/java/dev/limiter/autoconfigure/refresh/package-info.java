/**
 * Spring Boot wiring, one concern: limits refreshed without a restart when Spring Cloud's
 * context is on the classpath ({@code EnvironmentChangeEvent} on {@code limiter.*}).
 *
 * <p>
 * A user may rely on the auto-configuration class name (for {@code
 * spring.autoconfigure.exclude}) and on {@code LimiterSettingsRefresh#refresh()} to
 * re-read the configuration without Spring Cloud's event; the rest is internal.
 */
package dev.limiter.autoconfigure.refresh;
