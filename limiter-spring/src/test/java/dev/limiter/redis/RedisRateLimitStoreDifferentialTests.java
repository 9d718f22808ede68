package dev.limiter.redis;

import java.time.Duration;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.test.redis.UsesRedisServer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;

/**
 * The Lua script and the Java arithmetic are two implementations of one rule: random
 * sequences of take, release and peek over a few keys and budgets must get identical
 * answers from the in-memory store and the Redis store (lease ids aside). Time mostly
 * moves forward, often landing on a window end or lease expiry or a millisecond either
 * side of it, and sometimes goes back, by less than the in-memory store's expiry margin
 * (further back, a store may already have forgotten a key whose windows all ended). The
 * Redis store sits behind the local over-limit memory, as the auto-configuration wires
 * it, so its shortcuts are held to the same answers.
 */
@Tag(UsesRedisServer.TAG)
class RedisRateLimitStoreDifferentialTests extends StoreSequenceDifferentialTests {

	private static final List<Budget> BUDGETS = List.of(
			Budget.builder("diff-standard")
				.window("second", 3, Duration.ofSeconds(1))
				.window("tens", 8, Duration.ofSeconds(10))
				.concurrency(2, Duration.ofMillis(2_500))
				.build(),
			Budget.builder("diff-counting")
				.window("second", 4, Duration.ofSeconds(1))
				.window("fives", 9, Duration.ofSeconds(5))
				.concurrency(1, Duration.ofMillis(1_500))
				.countRefused(true)
				.build(),
			Budget.builder("diff-single").window("three", 5, Duration.ofSeconds(3)).build(),
			Budget.builder("diff-odd")
				.window("odd", 7, Duration.ofMillis(1_700))
				.window("long", 20, Duration.ofMillis(7_300))
				.concurrency(3, Duration.ofMillis(900))
				.build(),
			// notify-at on fixed windows: off the fixed windows' tuned path, reached once
			// per window instance
			Budget.builder("diff-notifying")
				.window(Window.of("second", 4, Duration.ofSeconds(1)).withNotifyAt(NotifyAt.of(List.of(50, 100))))
				.window(Window.of("tens", 9, Duration.ofSeconds(10)).withNotifyAt(NotifyAt.of(List.of(30, 60, 90))))
				.concurrency(2, Duration.ofMillis(2_500))
				.countRefused(true)
				.build());

	@Override
	protected List<Budget> budgets() {
		return BUDGETS;
	}

	@Property(tries = 150)
	void redisStoreWhenGivenAnySequenceShouldAnswerExactlyAsTheInMemoryStore(@ForAll("operations") List<Op> operations,
			@ForAll("offsets") long offset) {
		assertRedisAnswersAsTheInMemoryStore(operations, offset);
	}

}
