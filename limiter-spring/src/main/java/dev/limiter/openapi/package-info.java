/**
 * The limits written into the application's OpenAPI document (springdoc-openapi,
 * optional): each counted operation's {@code 429}, its counter headers and an {@code
 * x-ratelimit} extension, read from the route inventory.
 *
 * <p>
 * Internal: what the document gains is specified in {@code docs/configuration.md}
 * (OpenAPI); turned off with {@code limiter.openapi.enabled=false}.
 */
package dev.limiter.openapi;
