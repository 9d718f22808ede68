/**
 * The authentication-failure guard's servlet filters, before and after Spring Security's
 * chain, and the store decoration they use; the rules themselves are {@code
 * dev.limiter.core.guard}.
 *
 * <p>
 * Internal: configured through {@code limiter.auth-guard.*}; its answers (status,
 * headers, body) are specified in {@code docs/http-contract.md}.
 */
package dev.limiter.guard;
