/**
 * The sample application, built on Boot 3 (sample-app) and Boot 4 (sample-app-boot4) from
 * these sources: an API limited by budgets, route rules and annotations, with its own
 * bearer tokens and trial tokens.
 *
 * <p>
 * An example to read and copy, not a library: nothing here is API.
 */
package dev.limiter.sample;
