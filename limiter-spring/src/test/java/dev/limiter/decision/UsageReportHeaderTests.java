package dev.limiter.decision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A backend's usage report in a response header: one readable amount is reported once in
 * the budget's unit; anything else reports nothing and is counted as dropped.
 */
class UsageReportHeaderTests {

	private final Budget budget = Budget.builder("llm")
		.window(Window.of("minute", 10, Duration.ofMinutes(1)))
		.window(Window.of("tokens", 10_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.window(Window.of("daily-tokens", 100_000, Duration.ofDays(1)).inUnit("tokens"))
		.build();

	private final List<String> drops = new ArrayList<>();

	private final UsageReportHeader header = new UsageReportHeader("X-Usage-Tokens",
			new RateLimitObservers(List.of(new RateLimitObserver() {
				@Override
				public void onSettlementDropped(String budget, String window, String reason) {
					drops.add(budget + "/" + window + "/" + reason);
				}
			}), UsageReportHeaderTests.class));

	private final RateLimitUsage usage = new RateLimitUsage();

	@Test
	void reportWhenOneAmountShouldReportItOnceInTheBudgetsUnit() {
		assertThat(header.report(List.of("1234"), budget, usage)).hasValue(1234);

		assertThat(usage.close()).hasValue(Map.of("tokens", 1234L));
		assertThat(drops).isEmpty();
	}

	@Test
	void reportWhenTheAmountIsSurroundedBySpacesShouldReadIt() {
		assertThat(header.report(List.of(" \t42 "), budget, usage)).hasValue(42);

		assertThat(usage.close()).hasValue(Map.of("tokens", 42L));
	}

	@Test
	void reportWhenZeroShouldReportZero() {
		assertThat(header.report(List.of("0"), budget, usage)).hasValue(0);

		assertThat(usage.close()).hasValue(Map.of("tokens", 0L));
	}

	@Test
	void reportWhenTheLongestAmountShouldReadItWhole() {
		assertThat(header.report(List.of("999999999999999999"), budget, usage)).hasValue(999_999_999_999_999_999L);
	}

	@Test
	void reportWhenTheHeaderIsAbsentShouldReportNothingAndCountMissingPerWindowOfTheUnit() {
		assertThat(header.report(List.of(), budget, usage)).isEmpty();
		assertThat(header.report(null, budget, new RateLimitUsage())).isEmpty();

		assertThat(usage.close()).hasValue(Map.of());
		assertThat(drops).containsExactly("llm/tokens/missing", "llm/daily-tokens/missing", "llm/tokens/missing",
				"llm/daily-tokens/missing");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "-1", "+5", "1.5", "1e3", "12a", "0x10", "1,2", "1 2", "1234567890123456789",
			"99999999999999999999", "١٢" })
	void reportWhenTheValueIsMalformedShouldReportNothingAndCountMalformed(String value) {
		assertThat(header.report(List.of(value), budget, usage)).isEmpty();

		assertThat(usage.close()).hasValue(Map.of());
		assertThat(drops).containsExactly("llm/tokens/malformed", "llm/daily-tokens/malformed");
	}

	@Test
	void reportWhenTheHeaderHasSeveralValuesShouldReportNothingAndCountMalformed() {
		assertThat(header.report(Arrays.asList("10", "10"), budget, usage)).isEmpty();

		assertThat(usage.close()).hasValue(Map.of());
		assertThat(drops).containsExactly("llm/tokens/malformed", "llm/daily-tokens/malformed");
	}

	@Test
	void reportWhenTheRequestAlreadyEndedShouldCountTheReportAsAfterTheEnd() {
		RateLimitUsage ended = new RateLimitUsage((unit, amount) -> drops.add("after-end/" + unit + "/" + amount));
		ended.close();

		header.report(List.of("7"), budget, ended);

		assertThat(drops).containsExactly("after-end/tokens/7");
	}

	@Test
	void newWhenTheNameIsNoHeaderNameShouldThrow() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new UsageReportHeader("X Usage", new RateLimitObservers(List.of(), getClass())))
			.withMessageContaining("'X Usage'");
	}

	@Test
	void isFieldNameWhenTokenCharactersShouldAcceptThemAndRefuseSeparators() {
		assertThat(UsageReportHeader.isFieldName("X-Usage-Tokens")).isTrue();
		assertThat(UsageReportHeader.isFieldName("x_usage.tokens~1")).isTrue();
		assertThat(UsageReportHeader.isFieldName("")).isFalse();
		assertThat(UsageReportHeader.isFieldName("X-Usage:")).isFalse();
		assertThat(UsageReportHeader.isFieldName("X-Usage\r\n")).isFalse();
		assertThat(UsageReportHeader.isFieldName("Über")).isFalse();
	}

}
