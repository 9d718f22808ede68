package dev.limiter.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestStoreTimeTests {

	@Test
	void spendWhenScopesNestShouldAddUpUntilTheOutermostCloses() {
		try (RequestStoreTime.Scope outer = RequestStoreTime.open()) {
			RequestStoreTime.spend(300);
			try (RequestStoreTime.Scope inner = RequestStoreTime.open()) {
				RequestStoreTime.spend(200);
			}
			assertThat(RequestStoreTime.spentNanos()).isEqualTo(500);
		}
		assertThat(RequestStoreTime.spentNanos()).isZero();
	}

	@Test
	void spendWhenOutsideARequestShouldCountNothing() {
		RequestStoreTime.spend(1_000);

		assertThat(RequestStoreTime.spentNanos()).isZero();
	}

}
