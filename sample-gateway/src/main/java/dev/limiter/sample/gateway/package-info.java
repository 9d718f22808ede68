/**
 * The sample gateway: Spring Cloud Gateway in front of {@code sample-app}, its routes
 * limited by the {@code Limiter} filter. Not API.
 */
package dev.limiter.sample.gateway;
