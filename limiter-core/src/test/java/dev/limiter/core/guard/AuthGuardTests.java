package dev.limiter.core.guard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.limiter.core.contract.DownRateLimitStore;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static dev.limiter.core.guard.GuardAdmission.Outcome.ADMITTED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.BLOCKED;
import static dev.limiter.core.guard.GuardAdmission.Outcome.SATURATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthGuardTests {

	private static final long T = 1_700_000_000_123L;

	private static final long BLOCK_MILLIS = Duration.ofMinutes(30).toMillis();

	private static final long WINDOW_MILLIS = Duration.ofMinutes(15).toMillis();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000);

	private final AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());

	private final String address = AuthGuard.addressKey("203.0.113.7");

	@Test
	void guardWhenTheFiftiethFailureArrivesShouldBlock() {
		failTimes(49, T);
		GuardAdmission fiftieth = guard.admit(address, T + 1);
		assertThat(fiftieth.outcome()).isEqualTo(ADMITTED);

		guard.failed(fiftieth, T + 1);

		GuardAdmission next = guard.admit(address, T + 1);
		assertThat(next.outcome()).isEqualTo(BLOCKED);
		assertThat(next.retryAfterMillis()).isEqualTo(BLOCK_MILLIS);
		assertThat(next.retryAfterSeconds()).isEqualTo(1800);
	}

	@Test
	void guardWhenFortyNineFailuresArriveShouldNotBlock() {
		failTimes(49, T);

		assertThat(guard.admit(address, T).outcome()).isEqualTo(ADMITTED);
		assertThat(guard.state(address, T).blocked()).isFalse();
	}

	@Test
	void blockWhenStartedShouldLastExactlyTheBlockDuration() {
		failTimes(50, T);

		GuardAdmission lastMillisecond = guard.admit(address, T + BLOCK_MILLIS - 1);
		assertThat(lastMillisecond.outcome()).isEqualTo(BLOCKED);
		assertThat(lastMillisecond.retryAfterMillis()).isEqualTo(1);
		assertThat(lastMillisecond.retryAfterSeconds()).isEqualTo(1);
		GuardAdmission midway = guard.admit(address, T + 1_000_500);
		assertThat(midway.retryAfterMillis()).isEqualTo(BLOCK_MILLIS - 1_000_500);
		assertThat(midway.retryAfterSeconds()).isEqualTo(800);

		assertThat(guard.admit(address, T + BLOCK_MILLIS).outcome()).isEqualTo(ADMITTED);
	}

	@Test
	void guardWhenTheBlockEndsShouldCountTheNextRequestAfresh() {
		failTimes(50, T);
		long after = T + BLOCK_MILLIS;

		GuardAdmission first = guard.admit(address, after);
		guard.failed(first, after);

		assertThat(guard.state(address, after)).isEqualTo(new GuardState(1, 0, 0));
		failTimes(48, after);
		assertThat(guard.admit(address, after).outcome()).isEqualTo(ADMITTED);
	}

	@Test
	void successWhenFailuresAndLookupsArePendingShouldHandBackOnlyItsOwnReservation() {
		failTimes(10, T);
		List<GuardAdmission> inFlight = admitTimes(30, T);
		GuardAdmission good = guard.admit(address, "good", T);
		assertThat(guard.state(address, T)).isEqualTo(new GuardState(10, 31, 0));

		guard.succeeded(good, T);

		assertThat(guard.state(address, T)).isEqualTo(new GuardState(10, 30, 0, 1));
		inFlight.forEach(admission -> guard.failed(admission, T));
		assertThat(guard.state(address, T)).isEqualTo(new GuardState(40, 0, 0, 1));
		failTimes(9, T);
		assertThat(guard.state(address, T).blocked()).isFalse();
		failTimes(1, T);
		assertThat(guard.state(address, T).blockedUntilMillis()).isEqualTo(T + BLOCK_MILLIS);
	}

	@Test
	void successWhenABlockAlreadyStartedShouldNotLiftIt() {
		// A slow good lookup whose reservation expired while a burst of failures started
		// the block.
		GuardAdmission slowGood = guard.admit(address, T);
		long later = T + 30_000;
		failTimes(50, later);
		assertThat(guard.state(address, later).blocked()).isTrue();

		guard.succeeded(slowGood, later + 1);

		assertThat(guard.admit(address, later + 2).outcome()).isEqualTo(BLOCKED);
	}

	@Test
	void guardWhenFailuresAndLookupsAreInFlightShouldNeverPassTheThreshold() {
		failTimes(45, T);

		List<GuardAdmission> burst = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			burst.add(guard.admit(address, T));
		}

		assertThat(burst).extracting(GuardAdmission::outcome)
			.containsExactly(ADMITTED, ADMITTED, ADMITTED, ADMITTED, ADMITTED, SATURATED, SATURATED, SATURATED,
					SATURATED, SATURATED);
		assertThat(guard.state(address, T)).isEqualTo(new GuardState(45, 5, 0));
	}

	@Test
	void guardWhenSixtyBadGuessesAndOneGoodOneRaceShouldStillBlock() throws Exception {
		GuardAdmission good = guard.admit(address, T);

		List<GuardAdmission> burst = concurrently(60, () -> guard.admit(address, T));
		Map<GuardAdmission.Outcome, List<GuardAdmission>> byOutcome = byOutcome(burst);
		assertThat(byOutcome.get(ADMITTED)).hasSize(49);
		assertThat(byOutcome.get(SATURATED)).hasSize(11)
			.allSatisfy(s -> assertThat(s.retryAfterSeconds()).isEqualTo(1));
		assertThat(byOutcome).doesNotContainKey(BLOCKED);

		guard.succeeded(good, T);
		assertThat(guard.state(address, T)).isEqualTo(new GuardState(0, 49, 0));
		concurrently(byOutcome.get(ADMITTED), bad -> {
			guard.failed(bad, T + 10);
			return bad;
		});
		assertThat(guard.state(address, T + 10)).isEqualTo(new GuardState(49, 0, 0));

		// The eleven that were told to come back in a second do so: one more lookup fits,
		// the rest wait.
		long retry = T + 1_000;
		List<GuardAdmission> retries = concurrently(11, () -> guard.admit(address, retry));
		Map<GuardAdmission.Outcome, List<GuardAdmission>> retried = byOutcome(retries);
		assertThat(retried.get(ADMITTED)).hasSize(1);
		assertThat(retried.get(SATURATED)).hasSize(10);
		guard.failed(retried.get(ADMITTED).get(0), retry);

		GuardAdmission afterwards = guard.admit(address, retry + 1_000);
		assertThat(afterwards.outcome()).isEqualTo(BLOCKED);
		assertThat(afterwards.retryAfterMillis()).isEqualTo(BLOCK_MILLIS - 1_000);
	}

	@Test
	void goodCredentialWhenArrivingDuringABurstShouldWaitWhileTheBurstStillBlocks() throws Exception {
		List<GuardAdmission> burst = concurrently(60, () -> guard.admit(address, T));
		Map<GuardAdmission.Outcome, List<GuardAdmission>> byOutcome = byOutcome(burst);
		assertThat(byOutcome.get(ADMITTED)).hasSize(50);
		assertThat(byOutcome.get(SATURATED)).hasSize(10);

		GuardAdmission good = guard.admit(address, T);
		assertThat(good.outcome()).isEqualTo(SATURATED);
		assertThat(good.retryAfterSeconds()).isEqualTo(1);

		concurrently(byOutcome.get(ADMITTED), bad -> {
			guard.failed(bad, T + 5);
			return bad;
		});
		GuardAdmission goodAgain = guard.admit(address, T + 1_005);
		assertThat(goodAgain.outcome()).isEqualTo(BLOCKED);
		assertThat(goodAgain.retryAfterMillis()).isEqualTo(BLOCK_MILLIS - 1_000);
	}

	@Test
	void guardWhenSaturatedShouldAnswerOneSecondAndStartNoBlock() {
		AuthGuard narrow = new AuthGuard(store,
				new AuthGuardPolicy(50, Duration.ofMinutes(15), Duration.ofMinutes(30), 3, Duration.ofSeconds(30)));
		List<GuardAdmission> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(narrow.admit(address, T));
		}

		GuardAdmission fourth = narrow.admit(address, T);

		assertThat(fourth.outcome()).isEqualTo(SATURATED);
		assertThat(fourth.retryAfterMillis()).isEqualTo(1_000);
		assertThat(fourth.retryAfterSeconds()).isEqualTo(1);
		assertThat(narrow.state(address, T)).isEqualTo(new GuardState(0, 3, 0));
		narrow.succeeded(held.get(0), T);
		assertThat(narrow.admit(address, T).outcome()).isEqualTo(ADMITTED);
	}

	@Test
	void failureWhenRecordedShouldCountForTheWindowAfterItHappened() {
		failTimes(49, T);
		failTimes(1, T + 60_000);

		assertThat(guard.state(address, T + WINDOW_MILLIS - 1).failures()).isEqualTo(0);
		assertThat(guard.state(address, T + WINDOW_MILLIS - 1).blocked()).isTrue();
	}

	@Test
	void failuresWhenOlderThanTheWindowShouldBeForgotten() {
		failTimes(49, T);

		assertThat(guard.state(address, T + WINDOW_MILLIS - 1).failures()).isEqualTo(49);
		assertThat(guard.state(address, T + WINDOW_MILLIS).failures()).isEqualTo(0);
		failTimes(1, T + WINDOW_MILLIS);
		assertThat(guard.state(address, T + WINDOW_MILLIS).blocked()).isFalse();
	}

	@Test
	void lookupWhenItThrowsShouldHandBackItsReservationWithoutAFailure() {
		GuardAdmission admission = guard.admit(address, T);

		guard.abandoned(admission, T);

		assertThat(guard.state(address, T)).isEqualTo(new GuardState(0, 0, 0));
	}

	@Test
	void reservationWhenNobodyHandsItBackShouldExpireAfterTheLookupLease() {
		admitTimes(50, T);
		assertThat(guard.admit(address, T + 29_999).outcome()).isEqualTo(SATURATED);

		assertThat(guard.admit(address, T + 30_000).outcome()).isEqualTo(ADMITTED);
	}

	@Test
	void addressesWhenDifferentShouldBeCountedApart() {
		failTimes(50, T);

		assertThat(guard.admit(AuthGuard.addressKey("203.0.113.8"), T).outcome()).isEqualTo(ADMITTED);
	}

	@Test
	void addressKeyWhenBuiltShouldBeAHashAndNeverTheAddressItself() {
		String hostile = "1.2.3.4\r\nX-Injected: yes";

		String key = AuthGuard.addressKey(hostile);

		assertThat(key).matches("addr:[0-9a-f]{32}").doesNotContain("1.2.3.4");
		assertThat(AuthGuard.addressKey(null)).isEqualTo(AuthGuard.addressKey(""));
	}

	@Test
	void guardWhenTheStoreCannotAnswerShouldAdmitWithoutAReservation() {
		AuthGuard overBrokenStore = new AuthGuard(new DownRateLimitStore("broken"), AuthGuardPolicy.defaults());

		GuardAdmission admission = overBrokenStore.admit(address, T);

		assertThat(admission.outcome()).isEqualTo(ADMITTED);
		assertThat(admission.degraded()).isTrue();
		assertThat(admission.reservationLease()).isEmpty();
		overBrokenStore.failed(admission, T);
		overBrokenStore.succeeded(admission, T);
	}

	@Test
	void lookupWhenTheRequestWasNotAdmittedShouldNotBeReportable() {
		failTimes(50, T);
		GuardAdmission blocked = guard.admit(address, T);

		assertThatThrownBy(() -> guard.failed(blocked, T)).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void policyWhenValuesAreNonsenseShouldBeRejected() {
		assertThatThrownBy(
				() -> new AuthGuardPolicy(0, Duration.ofMinutes(1), Duration.ofMinutes(1), 1, Duration.ofSeconds(1)))
			.hasMessageContaining("threshold");
		assertThatThrownBy(() -> new AuthGuardPolicy(1, Duration.ofMinutes(1), Duration.ZERO, 1, Duration.ofSeconds(1)))
			.hasMessageContaining("block");
		assertThatThrownBy(
				() -> new AuthGuardPolicy(1, Duration.ofMinutes(1), Duration.ofMinutes(1), 0, Duration.ofSeconds(1)))
			.hasMessageContaining("max-pending");
	}

	private void failTimes(int times, long nowMillis) {
		for (int i = 0; i < times; i++) {
			GuardAdmission admission = guard.admit(address, nowMillis);
			assertThat(admission.outcome()).as("admission %d", i).isEqualTo(ADMITTED);
			guard.failed(admission, nowMillis);
		}
	}

	private List<GuardAdmission> admitTimes(int times, long nowMillis) {
		List<GuardAdmission> admissions = new ArrayList<>();
		for (int i = 0; i < times; i++) {
			GuardAdmission admission = guard.admit(address, nowMillis);
			assertThat(admission.outcome()).isEqualTo(ADMITTED);
			admissions.add(admission);
		}
		return admissions;
	}

	private static Map<GuardAdmission.Outcome, List<GuardAdmission>> byOutcome(List<GuardAdmission> admissions) {
		return admissions.stream().collect(Collectors.groupingBy(GuardAdmission::outcome));
	}

	private static <T> List<T> concurrently(int count, Callable<T> task) throws Exception {
		List<Callable<T>> tasks = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			tasks.add(task);
		}
		return runTogether(tasks);
	}

	private static <T> List<T> concurrently(List<GuardAdmission> inputs, Function<GuardAdmission, T> task)
			throws Exception {
		List<Callable<T>> tasks = new ArrayList<>();
		for (GuardAdmission input : inputs) {
			tasks.add(() -> task.apply(input));
		}
		return runTogether(tasks);
	}

	/** Starts every task at once behind a gate, so they really race. */
	private static <T> List<T> runTogether(List<Callable<T>> tasks) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
		try {
			CountDownLatch gate = new CountDownLatch(1);
			List<Future<T>> futures = new ArrayList<>();
			for (Callable<T> task : tasks) {
				futures.add(pool.submit(() -> {
					gate.await();
					return task.call();
				}));
			}
			gate.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(30, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			pool.shutdownNow();
		}
	}

}
