/**
 * The HTTP peer apps {@code benchmarks/run} measures beside the sample app: what a team
 * would write instead of limiter, on the same Redis, token, budget and route.
 */
package dev.limiter.benchmarks.peers;
