package dev.limiter.servlet;

import java.time.Duration;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code RateLimit}'s {@code t} is the seconds until the policy makes more quota
 * available (draft-ietf-httpapi-ratelimit-headers), beside {@code Retry-After} the same
 * moment, while {@code X-RateLimit-Reset} keeps saying when the window is whole again: a
 * sliding window's oldest bucket ageing out, a bucket's next token, a fixed window's
 * reset, for the binding window and for every window of a budget with units; decisions of
 * the in-memory store at exact milliseconds.
 */
class DefaultRateLimitResponseWriterQuotaTimeTests {

	/** An instant on an hour boundary, in Unix seconds: 1,699,999,200. */
	private static final long T0 = 1_699_999_200_000L;

	private final DefaultRateLimitResponseWriter writer = new DefaultRateLimitResponseWriter(true, true);

	private final RateLimitStore store = RateLimitStores.inMemory(100);

	@Test
	void slidingWindowWhenAdmittedShouldGiveTheSecondsUntilItsOldestBucketAgesOut() {
		Budget budget = Budget.builder("s").window(Window.sliding("tens", 5, Duration.ofSeconds(10))).build();
		store.take(budget, "k", 1, false, T0 + 1_200);

		MockHttpServletResponse response = admitted(store.take(budget, "k", 1, false, T0 + 4_500));

		// Bucket [1 s, 2 s) counts until 12 s: 7.5 s from now; the [4 s, 5 s) one until
		// 15 s.
		assertThat(response.getHeader("RateLimit")).isEqualTo("\"tens\";r=3;t=8");
		assertThat(response.getHeader("X-RateLimit-Reset")).isEqualTo(Long.toString(T0 / 1_000 + 15));
	}

	@Test
	void tokenBucketWhenAdmittedShouldGiveTheSecondsUntilTheNextToken() {
		Budget budget = Budget.builder("b").window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10))).build();
		store.take(budget, "k", 1, false, T0);

		MockHttpServletResponse response = admitted(store.take(budget, "k", 1, false, T0 + 500));

		// A token every 2 s: the first one taken is back at 2 s, the bucket full at 4 s.
		assertThat(response.getHeader("RateLimit")).isEqualTo("\"tens\";r=3;t=2");
		assertThat(response.getHeader("X-RateLimit-Reset")).isEqualTo(Long.toString(T0 / 1_000 + 4));
	}

	@Test
	void tokenBucketWhenRefusedShouldGiveTheRetryAfterSecondsAsItsTime() throws Exception {
		Budget budget = Budget.builder("b").window(Window.tokenBucket("tens", 5, Duration.ofSeconds(10))).build();
		for (int i = 0; i < 5; i++) {
			store.take(budget, "k", 1, false, T0);
		}
		Decision refused = store.take(budget, "k", 1, false, T0 + 500);
		MockHttpServletResponse response = new MockHttpServletResponse();

		writer.writeRefusal(new MockHttpServletRequest(), response, refused);

		assertThat(response.getHeader("Retry-After")).isEqualTo("2");
		assertThat(response.getHeader("RateLimit")).isEqualTo("\"tens\";r=0;t=2");
		assertThat(response.getHeader("X-RateLimit-Reset")).isEqualTo(Long.toString(T0 / 1_000 + 10));
	}

	@Test
	void budgetWithUnitsShouldGiveEveryWindowTheSecondsUntilItsOwnNextQuota() {
		Budget budget = Budget.builder("m")
			.window(Window.tokenBucket("bucket", 5, Duration.ofSeconds(10), 50))
			.window("minute", 600, Duration.ofMinutes(1))
			.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
			.build();

		Decision decision = store.reserve(budget, "k", budget.amounts(1, Map.of("tokens", 100L)), false, T0 + 45_000);

		// Every window's item (a budget with units): the bucket, 50 tokens less one, has
		// its next token in 2 s; the fixed windows reset at the minute's end.
		assertThat(admitted(decision).getHeader("RateLimit"))
			.isEqualTo("\"bucket\";r=49;t=2, \"minute\";r=599;t=15, \"tokens\";r=1900;t=15");
	}

	private MockHttpServletResponse admitted(Decision decision) {
		assertThat(decision.allowed()).isTrue();
		MockHttpServletResponse response = new MockHttpServletResponse();
		writer.writeCounters(response, decision);
		return response;
	}

}
