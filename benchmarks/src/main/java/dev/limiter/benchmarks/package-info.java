/**
 * JMH benchmarks and the load and chaos harnesses ({@code benchmarks/run}, {@code
 * benchmarks/chaos}) behind {@code docs/benchmarks.md}; never part of {@code mvn
 * verify}.
 *
 * <p>
 * Not shipped: nothing here is API.
 */
package dev.limiter.benchmarks;
