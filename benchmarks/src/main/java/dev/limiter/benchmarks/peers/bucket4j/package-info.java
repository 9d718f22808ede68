/**
 * The Bucket4j filter peer app: a servlet filter a team writes on Bucket4j's Lettuce
 * proxy manager.
 */
package dev.limiter.benchmarks.peers.bucket4j;
