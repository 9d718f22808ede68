package dev.limiter.servlet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.ForwardingRateLimitStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Settlement;
import dev.limiter.core.ThresholdCrossing;
import dev.limiter.core.Window;
import dev.limiter.metrics.MicrometerRateLimitObserver;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RateLimitUsage;
import dev.limiter.spring.RoutePolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A settlement the store cannot confirm (Redis frozen, then timed out): the request ends
 * without waiting for it, the failure is counted once in
 * {@code limiter.settlements.failed} when it comes, nothing retries it, and the estimate
 * stays counted.
 */
class RateLimitFilterSettlementFailureTests {

	private static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	private static final Budget COMPLETION = Budget.builder("completion")
		.window("minute", 60, Duration.ofMinutes(1))
		.window(Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens"))
		.build();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final SettleNeverAnswers store = new SettleNeverAnswers();

	@Test
	void settlementWhenTheStoreDoesNotAnswerShouldNotHoldTheRequestAndBeCountedOnceWhenItFails() throws Exception {
		RateLimitFilter filter = RateLimitFilter
			.builder(
					new RateLimitRules(new BudgetRegistry(List.of(COMPLETION), "completion", "completion"),
							BudgetOptions.DEFAULTS,
							(request) -> new RoutePolicy("/complete", "completion", false, false, null,
									Map.of("tokens", 100L))),
					store, (request) -> CallerKey.authenticated("t:k", () -> "k"),
					new DefaultRateLimitResponseWriter(true, false))
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.observers(List.of(new MicrometerRateLimitObserver(meters, store.name())))
			.build();
		MockHttpServletResponse response = new MockHttpServletResponse();

		filter.doFilter(new MockHttpServletRequest("POST", "/complete"), response,
				(req, res) -> RateLimitUsage.report(req, "tokens", 900));

		// the request ended: its settlement was sent, and is still unanswered
		assertThat(response.getStatus()).isEqualTo(200);
		assertThat(store.sent).hasSize(1);
		assertThat(store.sent.get(0)).isNotDone();
		assertThat(failed()).isZero();

		store.sent.get(0).completeExceptionally(new RateLimitStoreException("no answer within 250ms"));

		assertThat(failed()).isEqualTo(1);
		assertThat(store.sent).as("never retried").hasSize(1);
		// the estimate stays counted; the 800 beyond it are the bound on what is lost
		assertThat(store.peek(COMPLETION, "t:k", NOW.toEpochMilli()).bounds().get(1).remaining()).isEqualTo(1_900);
	}

	private double failed() {
		Counter counter = meters.find(MicrometerRateLimitObserver.SETTLEMENTS_FAILED)
			.tags("budget", "completion")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** The in-memory store, whose settlements are sent and never answered. */
	static final class SettleNeverAnswers extends ForwardingRateLimitStore {

		private final RateLimitStore delegate = RateLimitStores.inMemory(100);

		final List<CompletableFuture<List<ThresholdCrossing>>> sent = new CopyOnWriteArrayList<>();

		@Override
		protected RateLimitStore delegate() {
			return delegate;
		}

		@Override
		public Decision reserve(Budget budget, String key, long[] amounts, boolean expensive, long nowMillis) {
			return delegate.reserve(budget, key, amounts, expensive, nowMillis);
		}

		@Override
		public CompletionStage<List<ThresholdCrossing>> settle(Settlement settlement, long nowMillis) {
			CompletableFuture<List<ThresholdCrossing>> answer = new CompletableFuture<>();
			sent.add(answer);
			return answer;
		}

	}

}
