/**
 * {@link dev.limiter.servlet.RateLimitFilter} and its parts: the key of a request, the
 * budget's choice, the counter headers (and when a shared cache forbids them), the
 * lease's release, shadow mode; and the default implementations of the {@code
 * dev.limiter.spring} API ({@link dev.limiter.servlet.DefaultKeyResolver},
 * {@link dev.limiter.servlet.DefaultRateLimitResponseWriter}, the
 * {@code CredentialIdentity} beans).
 *
 * <p>
 * The defaults are public so that a replacement can delegate to them; what they do is
 * specified in {@code docs/} (the keys, the headers and bodies). Everything else here is
 * internal and may change in any release.
 */
package dev.limiter.servlet;
