package dev.limiter.redis;

import java.time.Duration;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;

/**
 * The sliding window's and the token bucket's Lua and Java are two implementations of one
 * rule each, as the fixed window's are ({@link RedisRateLimitStoreDifferentialTests}):
 * random sequences of take, release and peek over a few keys and budgets (each algorithm
 * alone, with refusals counted, and mixed with a fixed window and the concurrency bound
 * in one budget) must get identical answers from the in-memory store and the Redis store
 * (lease ids aside). Time mostly moves forward, often landing on a window end or lease
 * expiry or a millisecond either side of it, and sometimes goes back, by less than the
 * in-memory store's expiry margin (further back, a store may already have forgotten a key
 * whose windows all ended). The Redis store sits behind the local over-limit memory, as
 * the auto-configuration wires it, so its shortcuts are held to the same answers.
 */
@Tag(UsesRedisServer.TAG)
class RedisRateLimitStoreAlgorithmDifferentialTests extends StoreSequenceDifferentialTests {

	static final List<Budget> BUDGETS = List.of(
			Budget.builder("diff-sliding").window(Window.sliding("tens", 6, Duration.ofSeconds(3))).build(),
			Budget.builder("diff-sliding-fine")
				.window(Window.sliding("odd", 5, Duration.ofMillis(1_700), Duration.ofMillis(300)))
				.countRefused(true)
				.build(),
			Budget.builder("diff-bucket").window(Window.tokenBucket("tens", 3, Duration.ofSeconds(2), 5)).build(),
			Budget.builder("diff-bucket-counting")
				.window(Window.tokenBucket("odd", 7, Duration.ofMillis(1_700)))
				.countRefused(true)
				.build(),
			Budget.builder("diff-mixed")
				.window(Window.sliding("sliding", 5, Duration.ofSeconds(2), Duration.ofMillis(200)))
				.window(Window.tokenBucket("bucket", 3, Duration.ofSeconds(1), 4))
				.window("fixed", 9, Duration.ofSeconds(5))
				.concurrency(2, Duration.ofMillis(2_500))
				.build());

	@Override
	protected List<Budget> budgets() {
		return BUDGETS;
	}

	@Property(tries = 150)
	void redisStoreWhenGivenAnySequenceOfAnyAlgorithmShouldAnswerExactlyAsTheInMemoryStore(
			@ForAll("operations") List<Op> operations, @ForAll("offsets") long offset) {
		assertRedisAnswersAsTheInMemoryStore(operations, offset);
	}

}
