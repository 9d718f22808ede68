/**
 * The HTTP peer apps {@code benchmarks/run} measures beside the sample app: what a team
 * would write or install instead of limiter, on the same Redis, tokens, budget and route.
 * Each app lives in a package of its own so that one app's component scan never picks up
 * the other's beans.
 */
package dev.limiter.benchmarks.peers;
