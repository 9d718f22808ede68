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

	@Test
	void currentWhenTheNextRequestOpensOnTheSameThreadShouldBeAnotherRequest() {
		RequestStoreTime first;
		try (RequestStoreTime.Scope outer = RequestStoreTime.open()) {
			first = RequestStoreTime.current();
			try (RequestStoreTime.Scope inner = RequestStoreTime.open()) {
				assertThat(RequestStoreTime.current()).as("an inner scope joins the request").isSameAs(first);
			}
		}
		assertThat(RequestStoreTime.current()).as("outside a request").isNull();

		try (RequestStoreTime.Scope next = RequestStoreTime.open()) {
			assertThat(RequestStoreTime.current()).isNotNull().isNotSameAs(first);
		}
	}

}
