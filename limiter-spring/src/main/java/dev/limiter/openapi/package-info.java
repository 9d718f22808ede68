/**
 * The limiter in springdoc-openapi's document: each counted operation's {@code 429},
 * counter headers and {@code x-ratelimit} extension, read from the route inventory.
 * Loaded only when springdoc is on the classpath.
 *
 * <p>
 * A user may rely on the extension's name and the problem schema's name; the class is
 * internal.
 */
package dev.limiter.openapi;
