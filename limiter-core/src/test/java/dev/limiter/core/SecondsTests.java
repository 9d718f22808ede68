package dev.limiter.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecondsTests {

	@Test
	void ceilWhenPartOfASecondIsLeftShouldRoundUp() {
		assertThat(Seconds.ceil(1_001)).isEqualTo(2);
	}

	@Test
	void ceilWhenWholeSecondsShouldKeepThem() {
		assertThat(Seconds.ceil(3_000)).isEqualTo(3);
	}

	@Test
	void ceilWhenNegativeShouldRoundTowardsZero() {
		assertThat(Seconds.ceil(-1_500)).isEqualTo(-1);
	}

	@Test
	void atLeastOneWhenNothingIsLeftShouldSayOneSecond() {
		assertThat(Seconds.atLeastOne(0)).isEqualTo(1);
	}

}
