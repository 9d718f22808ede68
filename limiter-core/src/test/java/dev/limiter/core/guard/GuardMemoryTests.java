package dev.limiter.core.guard;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What one instance of the guard remembers, each until its own end. */
class GuardMemoryTests {

	private static final long T0 = 1_700_000_000_000L;

	private final GuardMemory memory = new GuardMemory();

	@Test
	void blockedWhenSeenShouldBeKnownUntilItsEndAndLetNoLookupRunAhead() {
		memory.blocked("addr:1", T0 + 1_000, true, false, T0);

		assertThat(memory.blockedUntil("addr:1", T0 + 999)).isEqualTo(T0 + 1_000);
		assertThat(memory.blockDegraded("addr:1", T0 + 999)).isTrue();
		assertThat(memory.refusesUnknown("addr:1", T0 + 999)).isTrue();
		assertThat(memory.runAhead("addr:1", 2, T0 + 999)).isFalse();
		assertThat(memory.blockedUntil("addr:1", T0 + 1_000)).isZero();
	}

	@Test
	void blockedWhenTheAddressHasProvenCredentialsShouldAskTheStoreForUnknownOnes() {
		memory.blocked("addr:1", T0 + 60_000, false, true, T0);

		assertThat(memory.blockedUntil("addr:1", T0 + 1)).isEqualTo(T0 + 60_000);
		assertThat(memory.refusesUnknown("addr:1", T0 + 1)).isFalse();
	}

	@Test
	void blockedWhenKnownShouldRefuseUnknownCredentialsOnlyUntilTheNextRecheck() {
		memory.blocked("addr:1", T0 + 60_000, false, false, T0);

		assertThat(memory.refusesUnknown("addr:1", T0 + GuardMemory.BLOCK_RECHECK_MILLIS - 1)).isTrue();
		assertThat(memory.refusesUnknown("addr:1", T0 + GuardMemory.BLOCK_RECHECK_MILLIS)).isFalse();
		assertThat(memory.blockedUntil("addr:1", T0 + GuardMemory.BLOCK_RECHECK_MILLIS)).isEqualTo(T0 + 60_000);
	}

	@Test
	void unblockedWhenABlockIsKnownShouldForgetIt() {
		memory.blocked("addr:1", T0 + 60_000, false, false, T0);

		memory.unblocked("addr:1");

		assertThat(memory.blockedUntil("addr:1", T0 + 1)).isZero();
		assertThat(memory.runAhead("addr:1", 2, T0 + 1)).isTrue();
	}

	@Test
	void blockedWhenAnAuthoritativeBlockFollowsADegradedOneShouldNoLongerSayDegraded() {
		memory.blocked("addr:1", T0 + 1_000, true, false, T0);

		memory.blocked("addr:1", T0 + 2_000, false, false, T0 + 1);

		assertThat(memory.blockDegraded("addr:1", T0 + 2)).isFalse();
	}

	@Test
	void runAheadWhenTheBoundIsReachedShouldWaitUntilOneHasItsAnswer() {
		assertThat(memory.runAhead("addr:1", 2, T0)).isTrue();
		assertThat(memory.runAhead("addr:1", 2, T0)).isTrue();
		assertThat(memory.runAhead("addr:1", 2, T0)).isFalse();

		memory.ranAhead("addr:1");

		assertThat(memory.runAhead("addr:1", 2, T0)).isTrue();
	}

	@Test
	void runAheadWhenTheAddressFailedHereShouldWaitForItsReservation() {
		memory.failedHere("addr:1", T0 + 60_000, T0);

		assertThat(memory.runAhead("addr:1", 2, T0 + 1)).isFalse();
	}

	@Test
	void runAheadWhenASuccessFromTheAddressFollowedItsFailureShouldBeAllowedAgain() {
		memory.failedHere("addr:1", T0 + 60_000, T0);

		memory.succeededFrom("addr:1");

		assertThat(memory.runAhead("addr:1", 2, T0 + 1)).isTrue();
	}

}
