package dev.limiter.redis;

import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;

/**
 * {@link RedisRateLimitStoreAlgorithmDifferentialTests}' property on the shared
 * three-master Cluster: the same budgets (each algorithm alone, counting refusals, and
 * mixed with a fixed window and the concurrency bound) and random sequences get the
 * in-memory store's answers from the script however the Cluster places their keys; fewer
 * tries, each sequence's calls crossing the Cluster client.
 */
@Tag(UsesRedisServer.TAG)
class RedisRateLimitStoreAlgorithmClusterDifferentialTests extends StoreSequenceDifferentialTests {

	@Override
	protected List<Budget> budgets() {
		return RedisRateLimitStoreAlgorithmDifferentialTests.BUDGETS;
	}

	@Override
	protected boolean onCluster() {
		return true;
	}

	@Property(tries = 40)
	void redisClusterWhenGivenAnySequenceOfAnyAlgorithmShouldAnswerExactlyAsTheInMemoryStore(
			@ForAll("operations") List<Op> operations, @ForAll("offsets") long offset) {
		assertRedisAnswersAsTheInMemoryStore(operations, offset);
	}

}
