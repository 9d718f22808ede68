package dev.limiter.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceTermsTests {

	@Test
	void sliceTermsWhenMaxIsBelowOneShouldNameTheMax() {
		assertThatThrownBy(() -> new SliceTerms(0, Duration.ofSeconds(1))).isInstanceOfSatisfying(
				InvalidValueException.class, (ex) -> assertThat(ex.field()).isEqualTo(SliceTerms.Field.MAX));
	}

	@Test
	void sliceTermsWhenTtlIsBelowOneMillisecondShouldNameTheTtl() {
		assertThatThrownBy(() -> new SliceTerms(5, Duration.ofNanos(10))).isInstanceOfSatisfying(
				InvalidValueException.class, (ex) -> assertThat(ex.field()).isEqualTo(SliceTerms.Field.TTL));
	}

	@Test
	void defaultMaxWhenWindowsDifferShouldBeOnePercentOfTheSmallestLimitAndAtLeastOne() {
		Budget big = Budget.builder("big")
			.window("minute", 5_000, Duration.ofMinutes(1))
			.window("hour", 90_000, Duration.ofHours(1))
			.build();
		Budget tiny = Budget.builder("tiny").window("minute", 60, Duration.ofMinutes(1)).build();

		assertThat(SliceTerms.defaultMax(big)).isEqualTo(50);
		assertThat(SliceTerms.defaultMax(tiny)).isEqualTo(1);
	}

	@Test
	void sizeWhenFarFromTheLimitShouldBeTheMax() {
		assertThat(SliceTerms.size(1, 10_000, 50, 2)).isEqualTo(50);
	}

	@Test
	void sizeWhenNearTheLimitShouldShrinkToWhatRemainsOverTwiceTheInstances() {
		assertThat(SliceTerms.size(1, 40, 50, 2)).isEqualTo(10);
		assertThat(SliceTerms.size(1, 7, 50, 2)).isEqualTo(1);
	}

	@Test
	void sizeWhenTheShareIsBelowTheCostShouldBeTheCost() {
		assertThat(SliceTerms.size(3, 5, 50, 1)).isEqualTo(3);
		assertThat(SliceTerms.size(3, 0, 50, 1)).isEqualTo(3);
	}

}
