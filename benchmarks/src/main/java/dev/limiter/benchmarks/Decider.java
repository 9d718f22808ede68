package dev.limiter.benchmarks;

/** One peer's decision for one caller key: whether the call was admitted. */
interface Decider {

	boolean decide(String key);

}
