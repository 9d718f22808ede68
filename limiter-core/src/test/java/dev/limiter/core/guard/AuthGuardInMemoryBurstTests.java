package dev.limiter.core.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard on the in-process store lets exactly {@code threshold} lookups through a
 * burst of bad credentials released together from one fresh address, every time: the
 * reservation, the failure and the block are each one step under the address's lock.
 */
class AuthGuardInMemoryBurstTests {

	private static final long T = 1_700_000_000_123L;

	@Test
	void burstWhenFiftyBadTokensRaceAtThresholdFiveShouldLookUpExactlyFiveEveryRound() throws Exception {
		AuthGuard guard = guard(5);
		for (int round = 0; round < 20; round++) {
			String address = AuthGuard.addressKey("198.51.100." + round);
			assertThat(lookups(guard, address, 50, T + round)).as("round %d", round).isEqualTo(5);
			assertThat(guard.admit(address, T + round).outcome()).isEqualTo(BLOCKED);
		}
	}

	@Test
	void burstWhenOneHundredFiftyBadTokensRaceAtThresholdFiftyShouldLookUpExactlyFiftyEveryRound() throws Exception {
		AuthGuard guard = guard(AuthGuardPolicy.DEFAULT_THRESHOLD);
		for (int round = 0; round < 20; round++) {
			String address = AuthGuard.addressKey("192.0.2." + round);
			assertThat(lookups(guard, address, 150, T + round)).as("round %d", round).isEqualTo(50);
		}
	}

	@Test
	void guessesWhenSentOneAfterAnotherShouldBeLookedUpFiveTimesThenBlocked() {
		AuthGuard guard = guard(5);
		String address = AuthGuard.addressKey("203.0.113.9");
		List<GuardAdmission.Outcome> outcomes = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			GuardAdmission admission = guard.admit(address, T + i);
			outcomes.add(admission.outcome());
			if (admission.admitted()) {
				// what the filter does: counted without waiting, before the 401 leaves
				guard.failedWithoutWaiting(admission, T + i);
			}
		}
		assertThat(outcomes).containsExactly(ADMITTED, ADMITTED, ADMITTED, ADMITTED, ADMITTED, BLOCKED, BLOCKED);
	}

	private static AuthGuard guard(int threshold) {
		AuthGuardPolicy policy = new AuthGuardPolicy(threshold, Duration.ofMinutes(15), Duration.ofMinutes(30),
				AuthGuardPolicy.DEFAULT_MAX_PENDING, AuthGuardPolicy.DEFAULT_LOOKUP_LEASE);
		return new AuthGuard(new InMemoryRateLimitStore(10_000), policy);
	}

	/**
	 * Releases {@code guesses} bad credentials together: each admitted one is a lookup
	 * that fails; returns how many lookups ran.
	 */
	private static int lookups(AuthGuard guard, String address, int guesses, long nowMillis) throws Exception {
		AtomicInteger lookups = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(guesses);
		try {
			CountDownLatch gate = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < guesses; i++) {
				futures.add(pool.submit(() -> {
					gate.await();
					GuardAdmission admission = guard.admit(address, nowMillis);
					if (admission.admitted()) {
						lookups.incrementAndGet();
						guard.failed(admission, nowMillis);
					}
					return null;
				}));
			}
			gate.countDown();
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		return lookups.get();
	}

}
