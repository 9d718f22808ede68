package dev.limiter.core.guard;

import java.time.Duration;

import dev.limiter.core.Budget;
import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A flood of distinct callers never grows the in-memory store past its max-keys. */
class AnonymousFloodTests {

	private static final long T = 1_700_000_000_000L;

	private static final int MAX_KEYS = 10_000;

	@Test
	void storeWhenAMillionDistinctAnonymousKeysArriveShouldStayWithinMaxKeys() {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(MAX_KEYS);
		Budget anonymous = Budget.builder("anonymous")
			.window("minute", 60, Duration.ofMinutes(1))
			.window("hour", 1_000, Duration.ofHours(1))
			.build();

		int peak = 0;
		for (int i = 0; i < 1_000_000; i++) {
			String address = "a:" + (i >>> 24) + "." + ((i >>> 16) & 0xff) + "." + ((i >>> 8) & 0xff) + "."
					+ (i & 0xff);
			assertThat(store.take(anonymous, address, 1, false, T + i / 100).allowed()).isTrue();
			if ((i & 0x3fff) == 0) {
				peak = Math.max(peak, store.size());
			}
		}

		peak = Math.max(peak, store.size());
		assertThat(peak).isLessThanOrEqualTo(MAX_KEYS);
		assertThat(store.size()).isGreaterThan(MAX_KEYS / 2);
	}

	@Test
	void guardWhenFloodedByDistinctFailingAddressesShouldStayWithinMaxKeys() {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(MAX_KEYS);
		AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());

		for (int i = 0; i < 200_000; i++) {
			String address = AuthGuard.addressKey("198.51." + (i >>> 8) + "." + (i & 0xff));
			GuardAdmission admission = guard.admit(address, T);
			guard.failed(admission, T);
			if ((i & 0x3fff) == 0) {
				assertThat(store.size()).isLessThanOrEqualTo(MAX_KEYS);
			}
		}

		assertThat(store.size()).isLessThanOrEqualTo(MAX_KEYS);
	}

}
