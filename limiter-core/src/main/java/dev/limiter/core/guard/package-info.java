/**
 * The authentication-failure guard in plain Java: its rules
 * ({@link dev.limiter.core.guard.AuthGuard}: failures per address, blocks, lookups in
 * flight), its numbers ({@link dev.limiter.core.guard.AuthGuardPolicy}) and its store SPI
 * ({@link dev.limiter.core.guard.AuthGuardStore}, in memory here, on Redis in {@code
 * dev.limiter.redis}).
 *
 * <p>
 * Not an extension point: the guard is configured through {@code limiter.auth-guard.*};
 * these types are public for the Spring modules and may change in any release.
 */
package dev.limiter.core.guard;
