package dev.limiter.core;

import java.time.Duration;

import dev.limiter.core.internal.InMemoryRateLimitStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class LeaseTests {

	private static final long T0 = 1_699_999_200_000L;

	private static final Budget LEASED = Budget.builder("leased")
		.window("minute", 100, Duration.ofMinutes(1))
		.concurrency(1, Duration.ofSeconds(30))
		.build();

	@Test
	void releaseWhenBoundShouldFreeTheSlotInTheIssuingStore() {
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(100);
		Lease lease = store.take(LEASED, "a", 1, true, T0).withLeaseIssuedBy(store).lease().orElseThrow();
		assertThat(store.take(LEASED, "a", 1, true, T0 + 1).allowed()).isFalse();

		lease.release(T0 + 2);

		assertThat(store.take(LEASED, "a", 1, true, T0 + 3).allowed()).isTrue();
	}

	@Test
	void releaseWhenNoStoreBoundItShouldFail() {
		Lease lease = new Lease("leased", "a", "1", T0 + 30_000);

		assertThatIllegalStateException().isThrownBy(() -> lease.release(T0));
	}

	@Test
	void withLeaseIssuedByWhenAlreadyBoundShouldKeepTheFirstIssuer() {
		InMemoryRateLimitStore inner = new InMemoryRateLimitStore(100);
		InMemoryRateLimitStore outer = new InMemoryRateLimitStore(100);
		Decision decision = inner.take(LEASED, "a", 1, true, T0).withLeaseIssuedBy(inner);

		assertThat(decision.withLeaseIssuedBy(outer).lease().orElseThrow().issuer()).isSameAs(inner);
	}

	@Test
	void equalsWhenOnlyTheIssuerDiffersShouldHold() {
		Lease unbound = new Lease("leased", "a", "1", T0);

		assertThat(unbound.issuedBy(new InMemoryRateLimitStore(1))).isEqualTo(unbound).hasSameHashCodeAs(unbound);
	}

}
