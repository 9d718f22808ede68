package dev.limiter.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a request's usage hands to the settlement: reports add up per unit until the
 * close, once; a report after the close counts nothing and is handed to the late-report
 * listener (the limiter's meter), never lost silently.
 */
class RateLimitUsageTests {

	private final List<String> late = new ArrayList<>();

	private final RateLimitUsage usage = new RateLimitUsage((unit, amount) -> late.add(unit + " " + amount));

	@Test
	void addWhenBeforeTheCloseShouldAddUpPerUnitAndTellNoListener() {
		assertThat(usage.add("tokens", 30)).isTrue();
		assertThat(usage.add("tokens", 12)).isTrue();
		assertThat(usage.add("rows", 0)).isTrue();

		assertThat(usage.close()).contains(Map.of("tokens", 42L, "rows", 0L));
		assertThat(late).isEmpty();
	}

	@Test
	void addWhenAfterTheCloseShouldCountNothingAndTellTheListenerEachTime() {
		usage.add("tokens", 5);
		assertThat(usage.close()).contains(Map.of("tokens", 5L));

		assertThat(usage.add("tokens", 50)).isFalse();
		assertThat(usage.add("tokens", 7)).isFalse();

		assertThat(late).containsExactly("tokens 50", "tokens 7");
		assertThat(usage.close()).isEmpty();
	}

	@Test
	void addWhenTheSumPassesTheLongRangeShouldSaturateNotWrapIntoARefund() {
		usage.add("tokens", 1_900);
		usage.add("tokens", Long.MAX_VALUE);

		assertThat(usage.close()).contains(Map.of("tokens", Long.MAX_VALUE));
	}

}
