/**
 * The Spring Boot wiring common to every Boot line:
 * {@link dev.limiter.autoconfigure.LimiterProperties} and its groups (bound from {@code
 * limiter.*}), {@link dev.limiter.autoconfigure.LimiterConfigurationResolver} (the one
 * place that validates them into {@link dev.limiter.autoconfigure.LimiterSettings},
 * naming the property of a rejected value), the unknown-key check, the core
 * auto-configurations, the filters' placement relative to Spring Security, failure
 * analyzers. Its sub-packages hold one auto-configuration per concern.
 *
 * <p>
 * The property names are the contract (docs/configuration.md), not the property classes.
 * A user may rely on the auto-configuration class names (for {@code
 * spring.autoconfigure.exclude}),
 * {@link dev.limiter.autoconfigure.ConditionalOnLimiterEnabled} and
 * {@link dev.limiter.autoconfigure.InvalidLimiterConfigurationException} (what start-up
 * fails with, and the property it names); the rest may change in any release.
 */
package dev.limiter.autoconfigure;
