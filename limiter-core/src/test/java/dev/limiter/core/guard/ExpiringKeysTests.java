package dev.limiter.core.guard;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ExpiringKeys}: bounded, and a full memory costs a caller who brings new keys no
 * walk over its entries until one of them may have ended.
 */
class ExpiringKeysTests {

	private static final long T = 1_700_000_000_000L;

	private final ExpiringKeys keys = new ExpiringKeys(10);

	@Test
	void rememberWhenFullOfRunningEntriesShouldNeitherLearnNorSweepForEachNewKey() {
		fill(T + 60_000);

		for (int i = 0; i < 1_000; i++) {
			keys.remember("new-" + i, T + 120_000, T + 1 + i);
		}

		assertThat(keys.sweeps()).as("no entry can have ended before T + 60 s").isZero();
		assertThat(keys.contains("new-0", T + 1_001)).isFalse();
		assertThat(keys.contains("old-0", T + 1_001)).isTrue();
	}

	@Test
	void rememberWhenAnEntryOfAFullMemoryHasEndedShouldSweepItAndLearn() {
		fill(T + 60_000);
		keys.remember("short", T + 5_000, T);
		keys.forget("old-0");
		keys.remember("short", T + 5_000, T);

		keys.remember("after-the-end", T + 120_000, T + 5_000);

		assertThat(keys.sweeps()).isEqualTo(1);
		assertThat(keys.contains("after-the-end", T + 5_000)).isTrue();
		assertThat(keys.contains("short", T + 5_000)).isFalse();
	}

	@Test
	void rememberWhenEntriesEndOneAfterAnotherShouldSweepAtMostOncePerInterval() {
		for (int i = 0; i < 10; i++) {
			keys.remember("old-" + i, T + 1_000 + i, T);
		}

		for (int i = 0; i < 10; i++) {
			keys.remember("new-" + i, T + 120_000, T + 1_000 + i);
		}

		assertThat(keys.sweeps())
			.as("entries end each millisecond; sweeps wait " + ExpiringKeys.SWEEP_INTERVAL_MILLIS + " ms between them")
			.isEqualTo(1);
		assertThat(keys.contains("new-0", T + 1_010)).isTrue();
		assertThat(keys.contains("new-1", T + 1_010)).as("learned nothing new until the next sweep").isFalse();
	}

	@Test
	void rememberWhenNotFullShouldKeepEachKeyUntilItsLatestEnd() {
		keys.remember("key", T + 1_000, T);
		keys.remember("key", T + 500, T);

		assertThat(keys.until("key", T)).isEqualTo(T + 1_000);
		assertThat(keys.contains("key", T + 1_000)).isFalse();
	}

	private void fill(long until) {
		for (int i = 0; i < 10; i++) {
			keys.remember("old-" + i, until, T);
		}
	}

}
