package dev.limiter.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** What a window of each algorithm accepts, and the defaults it takes. */
class WindowTests {

	@Test
	void windowWhenBuiltWithoutAnAlgorithmShouldBeTheFixedWindowItAlwaysWas() {
		Window window = Window.of("minute", 600, Duration.ofMinutes(1));

		assertThat(window.algorithm()).isEqualTo(WindowAlgorithm.FIXED_WINDOW);
		assertThat(window.fixed()).isTrue();
		assertThat(window.burst()).isEqualTo(600);
		assertThat(window.capacity()).isEqualTo(600);
		assertThat(window).hasToString("Window[name=minute, limit=600, duration=PT1M]");
		assertThat(window).isEqualTo(new Window("minute", 600, Duration.ofMinutes(1)));
	}

	@Test
	void windowWhenNoUnitIsGivenShouldCountRequestsAndAUnitShouldKeepEverythingElse() {
		Window requests = Window.sliding("tens", 5, Duration.ofSeconds(10));
		Window tokens = requests.inUnit("tokens");

		assertThat(requests.unit()).isEqualTo(Window.REQUESTS);
		assertThat(requests.countsRequests()).isTrue();
		assertThat(tokens.unit()).isEqualTo("tokens");
		assertThat(tokens.countsRequests()).isFalse();
		assertThat(tokens.resolutionMillis()).isEqualTo(requests.resolutionMillis());
		assertThat(tokens).isNotEqualTo(requests);
		assertThat(tokens.inUnit(Window.REQUESTS)).isEqualTo(requests).hasSameHashCodeAs(requests);
		assertThat(Window.tokenBucket("b", 5, Duration.ofSeconds(10), 9).inUnit("rows").burst()).isEqualTo(9);
		assertThat(Window.of("minute", 1, Duration.ofMinutes(1)).inUnit("x-1").unit()).isEqualTo("x-1");
	}

	@Test
	void slidingWhenNoResolutionIsGivenShouldUseASixtiethNeverFinerThanASecondNorLongerThanTheWindow() {
		assertThat(Window.sliding("hour", 1, Duration.ofHours(1)).resolutionMillis()).isEqualTo(60_000);
		assertThat(Window.sliding("minute", 1, Duration.ofMinutes(1)).resolutionMillis()).isEqualTo(1_000);
		assertThat(Window.sliding("tens", 1, Duration.ofSeconds(10)).resolutionMillis()).isEqualTo(1_000);
		assertThat(Window.sliding("short", 1, Duration.ofMillis(400)).resolutionMillis()).isEqualTo(400);
		assertThat(Window.sliding("fine", 1, Duration.ofSeconds(10), Duration.ofMillis(50)).resolutionMillis())
			.isEqualTo(50);
	}

	@Test
	void bucketWhenNoBurstIsGivenShouldHoldTheLimit() {
		Window bucket = Window.tokenBucket("tens", 5, Duration.ofSeconds(10));

		assertThat(bucket.burst()).isEqualTo(5);
		assertThat(Window.tokenBucket("tens", 5, Duration.ofSeconds(10), 20).capacity()).isEqualTo(20);
	}

	@Test
	void windowWhenItsArithmeticCouldLeaveTheExactRangeOfTheScriptsShouldBeRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Window("w", Long.MAX_VALUE, Duration.ofMinutes(1)))
			.withMessage("window 'w': limit must be at most 1125899906842624 (2^50), was " + Long.MAX_VALUE);
		assertThat(new Window("w", 1L << 50, Duration.ofMinutes(1)).limit()).isEqualTo(1L << 50);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Window.tokenBucket("w", 1, Duration.ofDays(1), Long.MAX_VALUE / 2))
			.withMessageStartingWith("window 'w': burst times the duration in milliseconds must be at most 2^53");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Window.tokenBucket("w", 1, Duration.ofDays(1), (1L << 53) / 86_400_000 + 1))
			.withMessageStartingWith("window 'w': burst times the duration in milliseconds must be at most 2^53");
		assertThat(Window.tokenBucket("w", 86_400_000, Duration.ofDays(1)).burst()).isEqualTo(86_400_000);
	}

	@Test
	void windowWhenAParameterDoesNotApplyOrIsOutOfRangeShouldNameIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Window("w", 5, Duration.ofSeconds(1), WindowAlgorithm.FIXED_WINDOW, 3L, null))
			.withMessage("window 'w': burst applies to a token-bucket window only, this one is fixed-window");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Window("w", 5, Duration.ofSeconds(1), WindowAlgorithm.SLIDING_WINDOW, 3L, null))
			.withMessageContaining("burst applies to a token-bucket window only");
		assertThatIllegalArgumentException().isThrownBy(() -> Window.tokenBucket("w", 5, Duration.ofSeconds(1), 0))
			.withMessage("window 'w': burst must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> Window.tokenBucket("w", 1_001, Duration.ofSeconds(1)))
			.withMessageContaining("limit must be at most the duration in milliseconds for a token-bucket")
			.withMessageEndingWith("was 1001 per PT1S");
		assertThat(Window.tokenBucket("w", 1_000, Duration.ofSeconds(1)).limit()).isEqualTo(1_000);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Window.sliding("w", 5, Duration.ofSeconds(1), Duration.ofSeconds(2)))
			.withMessageContaining("resolution must be between 1ms and the duration");
		assertThatIllegalArgumentException().isThrownBy(() -> WindowAlgorithm.fromValue("leaky-bucket"))
			.withMessage(
					"algorithm must be one of fixed-window, sliding-window, token-bucket, calendar, was 'leaky-bucket'");
		assertThat(WindowAlgorithm.fromValue("TOKEN_BUCKET")).isEqualTo(WindowAlgorithm.TOKEN_BUCKET);
	}

	@Test
	void budgetWhenACostExceedsATokenBucketsBurstShouldRefuseItButAcceptUpToTheBurst() {
		Budget budget = Budget.builder("b").window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10), 8)).build();

		budget.checkCost(8);
		assertThatIllegalArgumentException().isThrownBy(() -> budget.checkCost(9))
			.withMessageContaining("exceeds the burst 8 of window 'tens'");
		assertThat(budget.allFixed()).isFalse();
	}

}
