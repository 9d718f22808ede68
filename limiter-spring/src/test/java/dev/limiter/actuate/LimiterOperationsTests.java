package dev.limiter.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import dev.limiter.core.Budget;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.StoreModeListener;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One key's counters as the {@code limiter} endpoint reads them: whether they came from
 * the store or from the in-process fallback.
 */
class LimiterOperationsTests {

	private static final String KEY = "t:" + "A".repeat(43);

	private static final Budget STANDARD = Budget.builder("standard")
		.window("minute", 600, Duration.ofMinutes(1))
		.build();

	private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC);

	@Test
	void keyWhenStoreAnswersShouldNotBeDegraded() {
		LimiterOperations.Answer answer = operations(RateLimitStores.inMemory(100)).key("keys", KEY, null);

		assertThat(answer.status()).isEqualTo(200);
		assertThat(counters(answer)).singleElement().satisfies((counters) -> assertThat(counters.degraded()).isFalse());
	}

	@Test
	void keyWhenStoreFailsShouldSayTheCountersAreDegraded() {
		RateLimitStore failing = new ForwardingRateLimitStore() {

			@Override
			protected RateLimitStore delegate() {
				return RateLimitStores.inMemory(100);
			}

			@Override
			public KeyState peek(Budget budget, String key, long nowMillis) {
				throw new RateLimitStoreException("connection refused");
			}

		};
		RateLimitStore failOpen = new FailOpenRateLimitStore(failing, 100, (budget) -> false, 1000,
				StoreModeListener.NONE);

		LimiterOperations.Answer answer = operations(failOpen).key("keys", KEY, null);

		assertThat(answer.status()).isEqualTo(200);
		assertThat(counters(answer)).singleElement().satisfies((counters) -> assertThat(counters.degraded()).isTrue());
	}

	@Test
	void keyWhenKeyHashIsMalformedShouldAnswerAProblemThatNeverEchoesIt() {
		LimiterOperations.Answer answer = operations(RateLimitStores.inMemory(100)).key("keys", "sp_raw_token", null);

		assertThat(answer.status()).isEqualTo(400);
		assertThat(answer.body()).asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
			.containsEntry("type", "about:blank")
			.containsEntry("title", "Bad Request")
			.containsEntry("status", 400)
			.containsEntry("error", "malformed_key_hash")
			.containsKeys("detail", "message")
			.allSatisfy((name, value) -> assertThat(String.valueOf(value)).doesNotContain("sp_raw_token"));
	}

	private LimiterOperations operations(RateLimitStore store) {
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("store", store);
		return new LimiterOperations(new BudgetRegistry(Set.of(STANDARD), "standard", "standard"),
				BudgetOptions.DEFAULTS, beans.getBeanProvider(RateLimitStore.class),
				beans.getBeanProvider(RouteInventoryCheck.class), new RateLimitTotals(), clock);
	}

	private static List<LimiterOperations.CountersDescriptor> counters(LimiterOperations.Answer answer) {
		return ((LimiterOperations.KeyDescriptor) answer.body()).counters();
	}

}
