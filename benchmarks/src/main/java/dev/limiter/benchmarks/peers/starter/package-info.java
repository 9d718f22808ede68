/**
 * The bucket4j-spring-boot-starter peer app: the starter configured by properties, on
 * Redis.
 */
package dev.limiter.benchmarks.peers.starter;
