/**
 * What {@code /actuator/limiter} and the {@code limiter} health component report: the
 * overview ({@link dev.limiter.actuate.LimiterOperations}), one key's counters, read or
 * forgotten ({@link dev.limiter.actuate.KeyCounters}), the totals, the health details;
 * the Boot 3 starter adds its health indicator to this package, the Boot 4 starter has
 * its own in {@code dev.limiter.boot4.actuate}.
 *
 * <p>
 * Internal: the endpoint's and the health component's JSON are the contract (documented
 * in {@code docs/}), not these classes.
 */
package dev.limiter.actuate;
