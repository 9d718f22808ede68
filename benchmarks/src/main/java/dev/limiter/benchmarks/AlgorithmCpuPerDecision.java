package dev.limiter.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * CPU time per decision of {@link AlgorithmDecisionBenchmark}'s contenders (limiter's
 * in-memory store per algorithm and Bucket4j's local bucket, set up by the benchmark
 * itself, limits open so every call is an admission; each asked once for the decision
 * alone and once for the remaining count too, as the headers ask), measured on one thread
 * by the thread's own CPU clock, the contenders interleaved round by round in one JVM,
 * each round started by another contender; the first half of the rounds warms up
 * unrecorded. A thread's CPU time does not count the time other processes hold the cores,
 * so on a busy machine its ratios hold where JMH's throughput does not (it still counts
 * what they evict from the caches). Arguments: keys, rounds, decisions per round.
 */
public final class AlgorithmCpuPerDecision {

	private static final String[] ALGORITHMS = { "fixed-window", "sliding-window", "token-bucket" };

	private AlgorithmCpuPerDecision() {
	}

	public static void main(String[] args) {
		int keys = Integer.parseInt(args[0]);
		int rounds = Integer.parseInt(args[1]);
		int perRound = Integer.parseInt(args[2]);
		// Each algorithm's plain decision, then each asked for its remaining count as the
		// headers ask it, each beside Bucket4j's bucket asked the same way.
		String[] labels = new String[2 * (ALGORITHMS.length + 1)];
		@SuppressWarnings("unchecked")
		Predicate<AlgorithmDecisionBenchmark.Cursor>[] contenders = new Predicate[labels.length];
		for (int withRemaining = 0; withRemaining < 2; withRemaining++) {
			for (int a = 0; a <= ALGORITHMS.length; a++) {
				int c = withRemaining * (ALGORITHMS.length + 1) + a;
				boolean bucket4j = a == ALGORITHMS.length;
				AlgorithmDecisionBenchmark benchmark = new AlgorithmDecisionBenchmark();
				benchmark.algorithm = bucket4j ? "token-bucket" : ALGORITHMS[a];
				benchmark.keys = keys;
				benchmark.limits = "open";
				benchmark.setUp();
				labels[c] = (bucket4j ? "bucket4j" : ALGORITHMS[a]) + ((withRemaining == 1) ? "+remaining" : "");
				if (withRemaining == 0) {
					contenders[c] = bucket4j ? benchmark::bucket4jLocalTokenBucket : benchmark::limiterInMemory;
				}
				else {
					contenders[c] = bucket4j ? cursor -> benchmark.bucket4jLocalTokenBucketWithRemaining(cursor) >= 0
							: cursor -> benchmark.limiterInMemoryWithRemaining(cursor) >= 0;
				}
			}
		}
		AlgorithmDecisionBenchmark.Cursor cursor = new AlgorithmDecisionBenchmark.Cursor();
		cursor.next = 0;
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long[][] nanos = new long[labels.length][rounds];
		long admitted = 0;
		for (int round = -rounds / 2; round < rounds; round++) {
			for (int c = 0; c < labels.length; c++) {
				int which = (c + Math.max(round, 0)) % labels.length;
				Predicate<AlgorithmDecisionBenchmark.Cursor> contender = contenders[which];
				long start = threads.getCurrentThreadCpuTime();
				for (int i = 0; i < perRound; i++) {
					admitted += contender.test(cursor) ? 1 : 0;
				}
				long took = threads.getCurrentThreadCpuTime() - start;
				if (round >= 0) {
					nanos[which][round] = took;
				}
			}
		}
		System.out.printf("keys=%d rounds=%d perRound=%d admitted=%d%n", keys, rounds, perRound, admitted);
		for (int c = 0; c < labels.length; c++) {
			// the Bucket4j contender asked the same way: the last of this one's half
			int peer = (c / (ALGORITHMS.length + 1) + 1) * (ALGORITHMS.length + 1) - 1;
			double bucket4j = median(nanos[peer]) / perRound;
			double perDecision = median(nanos[c]) / perRound;
			System.out.printf("%-25s median %.1f ns CPU/decision (min %.1f)  Bucket4j/this = %.2fx%n", labels[c],
					perDecision, Arrays.stream(nanos[c]).min().getAsLong() / (double) perRound, bucket4j / perDecision);
		}
	}

	private static double median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

}
