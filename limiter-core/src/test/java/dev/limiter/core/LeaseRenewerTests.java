package dev.limiter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The renewal of a lease, its time a parameter: each renewal is called with the
 * millisecond it runs at, so nothing here waits for the scheduler.
 */
class LeaseRenewerTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget BUDGET = Budget.builder("renewed")
		.window("minute", 600, Duration.ofMinutes(1))
		.concurrency(2, Duration.ofSeconds(3))
		.build();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1_000);

	private final AtomicLong now = new AtomicLong(T0);

	/** Renewals the renewer scheduled, run by hand (never by a thread). */
	private final List<Runnable> scheduled = new ArrayList<>();

	private final LeaseRenewer renewer = new LeaseRenewer(now::get, (period, task) -> {
		assertThat(period).isEqualTo(1_000);
		scheduled.add(task);
		return () -> scheduled.remove(task);
	}, scheduled::clear);

	@AfterEach
	void stop() {
		renewer.close();
	}

	@Test
	void renewalWhenTheRequestRunsPastItsLeaseShouldHoldTheSlot() {
		LeaseRenewer.Renewal first = renewer.keep(lease(T0), 3_000);
		LeaseRenewer.Renewal second = renewer.keep(lease(T0), 3_000);

		for (long at = T0 + 1_000; at <= T0 + 5_000; at += 1_000) {
			assertThat(first.renew(at)).isTrue();
			assertThat(second.renew(at)).isTrue();
		}

		assertThat(take(T0 + 7_999).allowed()).as("3 s after the last renewal, less 1 ms").isFalse();
		first.close();
		second.close();
		assertThat(renewer.renewals()).isEqualTo(10);
	}

	@Test
	void renewalWhenScheduledShouldRunOnTheSchedulerWithTheClocksMillisecond() {
		renewer.keep(lease(T0), 3_000);
		renewer.keep(lease(T0), 3_000);
		for (long at = T0 + 1_000; at <= T0 + 5_000; at += 1_000) {
			now.set(at);
			List.copyOf(scheduled).forEach(Runnable::run);
		}

		assertThat(take(T0 + 7_999).allowed()).isFalse();
		assertThat(renewer.renewals()).isEqualTo(10);
	}

	@Test
	void renewalWhenClosedShouldRenewNothingAndTheLeaseShouldExpireByItself() {
		LeaseRenewer.Renewal renewal = renewer.keep(lease(T0), 3_000);
		LeaseRenewer.Renewal ended = renewer.keep(lease(T0), 3_000);
		ended.close();
		assertThat(scheduled).hasSize(1);
		assertThat(renewal.renew(T0 + 1_000)).isTrue();

		renewal.close();

		assertThat(scheduled).isEmpty();
		assertThat(renewal.renew(T0 + 2_000)).isFalse();
		assertThat(take(T0 + 3_000).allowed()).as("the slot of the lease never renewed").isTrue();
		assertThat(take(T0 + 3_999).allowed()).isFalse();
		assertThat(take(T0 + 4_000).allowed()).as("one lease length after the last renewal").isTrue();
	}

	@Test
	void renewalWhenTheStoreNoLongerHoldsTheLeaseShouldStopAndCountItLost() {
		LeaseRenewer.Renewal renewal = renewer.keep(lease(T0), 3_000);

		assertThat(renewal.renew(T0 + 3_000)).isFalse();
		assertThat(renewal.renew(T0 + 3_001)).isFalse();
		assertThat(renewer.lost()).isEqualTo(1);
		assertThat(renewer.renewals()).isEqualTo(1);
	}

	@Test
	void renewerWhenClosedLikeADeadInstanceShouldKeepNoLease() {
		LeaseRenewer.Renewal before = renewer.keep(lease(T0), 3_000);
		renewer.close();

		assertThat(scheduled).isEmpty();
		assertThat(before.renew(T0 + 1_000)).isFalse();

		LeaseRenewer.Renewal renewal = renewer.keep(lease(T0), 3_000);

		assertThat(renewal.renew(T0 + 1_000)).isFalse();
		assertThat(take(T0 + 2_999).allowed()).isFalse();
		assertThat(take(T0 + 3_000).allowed()).isTrue();
	}

	@Test
	void periodWhenComputedShouldBeAThirdOfTheLease() {
		assertThat(LeaseRenewer.periodMillis(30_000)).isEqualTo(10_000);
		assertThat(LeaseRenewer.periodMillis(3_000)).isEqualTo(1_000);
		assertThat(LeaseRenewer.periodMillis(2)).isEqualTo(1);
	}

	private Lease lease(long nowMillis) {
		return store.take(BUDGET, "k", 1, true, nowMillis).lease().orElseThrow().issuedBy(store);
	}

	private Decision take(long nowMillis) {
		return store.take(BUDGET, "k", 1, true, nowMillis);
	}

}
