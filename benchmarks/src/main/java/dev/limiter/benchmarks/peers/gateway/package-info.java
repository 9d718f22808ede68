/**
 * The gateway peer of issue 37 ({@code benchmarks/gateway.py}): one Spring Cloud Gateway
 * (WebFlux server) route to a constant backend ({@link ConstantBackend}, a process of its
 * own), with no limiter, with {@code RequestRateLimiter} on {@code RedisRateLimiter}, or
 * with limiter's {@code Limiter} filter, the same token bucket on the same Redis. Its own
 * package, so that it scans none of the other peers' beans.
 */
package dev.limiter.benchmarks.peers.gateway;
