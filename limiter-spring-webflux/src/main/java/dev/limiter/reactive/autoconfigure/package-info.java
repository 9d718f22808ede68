/**
 * The wiring of a reactive web application, common to every Spring Boot line:
 * {@link dev.limiter.reactive.autoconfigure.LimiterReactiveAutoConfiguration} (applies to
 * a reactive web application only; the shared auto-configurations of
 * {@code dev.limiter.autoconfigure} provide the rules, store, meters and endpoint), and
 * the start-up check that a Redis store is reached through Lettuce.
 */
package dev.limiter.reactive.autoconfigure;
