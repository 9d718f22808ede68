package dev.limiter.core.internal;

import java.time.Duration;

import dev.limiter.core.Budget;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.GuardAdmission;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Address keys cannot evict what authentication established, by choice of address or by
 * number.
 */
class InMemoryRateLimitStoreEvictionTests {

	private static final long T = 1_700_000_000_000L;

	private static final Budget STANDARD = Budget.builder("standard")
		.window("hour", 36_000, Duration.ofHours(1))
		.build();

	private static final Budget ANONYMOUS = Budget.builder("anonymous")
		.window("minute", 60, Duration.ofMinutes(1))
		.window("hour", 1_000, Duration.ofHours(1))
		.build();

	@Test
	void evictionWhenAddressesCollideWithATokensSegmentShouldNotEvictIt() {
		// 64 segments; under the former layout each held 4 keys of any kind.
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(256);
		String token = "t:ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0";
		store.take(STANDARD, token, 1, false, T);
		int target = formerSegment(STANDARD.name(), token);

		int aimed = 0;
		for (int i = 0; aimed < 200; i++) {
			String address = "a:10." + (i >>> 16) + "." + ((i >>> 8) & 0xff) + "." + (i & 0xff);
			if (formerSegment(ANONYMOUS.name(), address) == target) {
				store.take(ANONYMOUS, address, 1, false, T);
				aimed++;
			}
		}

		assertThat(store.peek(STANDARD, token, T).bounds().get(0).remaining()).isEqualTo(35_999);
	}

	@Test
	void evictionWhenAMillionAddressesFloodShouldLeaveEveryCredentialCounterAndGuardBlock() {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000);
		AuthGuard guard = new AuthGuard(store, AuthGuardPolicy.defaults());
		String blocked = AuthGuard.addressKey("203.0.113.66");
		for (int i = 0; i < AuthGuardPolicy.DEFAULT_THRESHOLD; i++) {
			GuardAdmission admission = guard.admit(blocked, T);
			guard.failed(admission, T);
		}
		assertThat(guard.state(blocked, T).blocked()).isTrue();
		for (int i = 0; i < 1_000; i++) {
			store.take(STANDARD, "t:credential-" + i, 1, false, T);
		}

		for (int i = 0; i < 1_000_000; i++) {
			String address = "a:" + (i >>> 24) + "." + ((i >>> 16) & 0xff) + "." + ((i >>> 8) & 0xff) + "."
					+ (i & 0xff);
			store.take(ANONYMOUS, address, 1, false, T + i / 100);
		}

		long now = T + 10_000;
		for (int i = 0; i < 1_000; i++) {
			assertThat(store.peek(STANDARD, "t:credential-" + i, now).bounds().get(0).remaining())
				.as("credential %d", i)
				.isEqualTo(35_999);
		}
		assertThat(guard.state(blocked, now).blocked()).isTrue();
		assertThat(store.size()).isLessThanOrEqualTo(10_000);
	}

	/**
	 * The segment the store chose before its hash was keyed: public arithmetic, so anyone
	 * could aim at it.
	 */
	private static int formerSegment(String budget, String key) {
		int h = (31 * budget.hashCode() + key.hashCode()) * 0x9E3779B9;
		return (h >>> 16) & 63;
	}

}
