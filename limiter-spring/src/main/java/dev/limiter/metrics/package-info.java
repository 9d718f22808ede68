/**
 * The Micrometer observer that turns each decision into meters.
 *
 * <p>
 * Internal: the meters' names and tags are the contract (documented in {@code docs/}),
 * not this class.
 */
package dev.limiter.metrics;
