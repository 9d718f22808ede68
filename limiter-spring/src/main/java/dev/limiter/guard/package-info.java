/**
 * The authentication-failure guard's servlet filters, before and after Spring Security's
 * chain, and the responses they gate; what the reactive guard filters share with them
 * ({@link dev.limiter.guard.GuardOutcomes}, {@link dev.limiter.guard.LookupAttempt}, no
 * servlet type); the rules themselves are {@code dev.limiter.core.guard}, what happens
 * when the guard's store fails is {@code dev.limiter.resilience}.
 *
 * <p>
 * Internal: configured through {@code limiter.auth-guard.*}; its answers (status,
 * headers, body) are specified in {@code docs/http-contract.md}.
 */
package dev.limiter.guard;
