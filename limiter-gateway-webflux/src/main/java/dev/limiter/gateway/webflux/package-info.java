/**
 * limiter on Spring Cloud Gateway's WebFlux server: the {@code Limiter} route filter
 * ({@link dev.limiter.gateway.webflux.LimiterGatewayFilterFactory}), decided through
 * {@code dev.limiter.reactive}'s filter, and its wiring. Internal apart from the filter's
 * name, arguments and {@code limiter.gateway.*}.
 */
package dev.limiter.gateway.webflux;
