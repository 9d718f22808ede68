/**
 * The public extension API of the Spring integration: the beans an application defines to
 * change what the limiter does ({@link dev.limiter.spring.KeyResolver},
 * {@link dev.limiter.spring.CredentialIdentity},
 * {@link dev.limiter.spring.BudgetSelector}, {@link dev.limiter.spring.RouteResolver},
 * {@link dev.limiter.spring.RateLimitResponseWriter},
 * {@link dev.limiter.spring.RateLimitObserver}), the annotations
 * ({@link dev.limiter.spring.RateLimited}, {@link dev.limiter.spring.RateLimitExempt})
 * and the values they exchange ({@link dev.limiter.spring.RoutePolicy},
 * {@link dev.limiter.spring.CallerKey}, {@link dev.limiter.spring.BudgetRegistry}, ...).
 *
 * <p>
 * API: a user may rely on every type here; changes are additive, and a type or member is
 * deprecated before it goes. Nothing here depends on Spring Boot.
 */
package dev.limiter.spring;
