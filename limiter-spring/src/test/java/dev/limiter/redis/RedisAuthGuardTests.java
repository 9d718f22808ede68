package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.GuardAdmission;
import dev.limiter.core.guard.GuardState;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.SATURATED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard's guarantees with its Redis store ({@code guard.lua}) under concurrent
 * lookups.
 */
@UsesRedisServer
class RedisAuthGuardTests {

	private static final long T = 1_700_000_000_123L;

	private static final long BLOCK_MILLIS = Duration.ofMinutes(30).toMillis();

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private AuthGuard guard;

	private String address;

	@BeforeEach
	void setUp() {
		RedisRateLimitStore store = RedisRateLimitStore.builder(redis.connectionFactory())
			.timeout(RedisTestTimeouts.GENEROUS)
			.build();
		guard = new AuthGuard(store.authGuardStore(AuthGuardPolicy.defaults()), AuthGuardPolicy.defaults());
		address = AuthGuard.addressKey("203.0.113." + UUID.randomUUID());
	}

	@Test
	void guardWhenSixtyBadGuessesAndOneGoodOneRaceShouldStillBlock() throws Exception {
		GuardAdmission good = guard.admit(address, T);

		Map<GuardAdmission.Outcome, List<GuardAdmission>> burst = byOutcome(
				concurrently(60, () -> guard.admit(address, T)));
		assertThat(burst.get(ADMITTED)).hasSize(49);
		assertThat(burst.get(SATURATED)).hasSize(11);
		assertThat(burst).doesNotContainKey(BLOCKED);

		guard.succeeded(good, T);
		assertThat(guard.state(address, T)).as("a success erases no pending lookup")
			.isEqualTo(new GuardState(0, 49, 0));
		for (GuardAdmission bad : burst.get(ADMITTED)) {
			guard.failed(bad, T + 10);
		}
		assertThat(guard.state(address, T + 10)).isEqualTo(new GuardState(49, 0, 0));

		GuardAdmission last = guard.admit(address, T + 1_000);
		assertThat(last.outcome()).isEqualTo(ADMITTED);
		assertThat(guard.failed(last, T + 1_000)).as("the 50th failure blocks").isTrue();
		GuardAdmission afterwards = guard.admit(address, T + 2_000);
		assertThat(afterwards.outcome()).isEqualTo(BLOCKED);
		assertThat(afterwards.retryAfterMillis()).isEqualTo(BLOCK_MILLIS - 1_000);
	}

	@Test
	void guardWhenFiftyOneVerificationsSucceedShouldNeverLockTheCallerOut() {
		for (int i = 0; i < 51; i++) {
			GuardAdmission valid = guard.admit(address, T + i);
			assertThat(valid.outcome()).as("verification %d", i + 1).isEqualTo(ADMITTED);
			guard.succeeded(valid, T + i);
		}

		assertThat(guard.admit(address, T + 51).outcome()).isEqualTo(ADMITTED);
		assertThat(guard.state(address, T + 51)).isEqualTo(new GuardState(0, 1, 0));
	}

	private static Map<GuardAdmission.Outcome, List<GuardAdmission>> byOutcome(List<GuardAdmission> admissions) {
		return admissions.stream().collect(Collectors.groupingBy(GuardAdmission::outcome));
	}

	private static List<GuardAdmission> concurrently(int n, Callable<GuardAdmission> call) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<GuardAdmission>> futures = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				futures.add(pool.submit(call));
			}
			List<GuardAdmission> results = new ArrayList<>();
			for (Future<GuardAdmission> future : futures) {
				results.add(future.get());
			}
			return results;
		}
		finally {
			pool.shutdownNow();
		}
	}

}
