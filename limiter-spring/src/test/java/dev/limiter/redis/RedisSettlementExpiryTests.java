package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Reservation;
import dev.limiter.core.SettlementBounds;
import dev.limiter.core.Window;
import dev.limiter.test.redis.RedisServerExtension;
import dev.limiter.test.redis.UsesRedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debt is never forgiven by a TTL (ADR 0012): whatever a settlement writes, the key lives
 * at least until its state stops meaning anything (a token bucket's debt paid, a fixed
 * window's carried excess paid), read back from a real Redis; and the expiry a settlement
 * sets is always one Redis accepts.
 */
@UsesRedisServer
class RedisSettlementExpiryTests {

	@RegisterExtension
	static RedisServerExtension redis = RedisServerExtension.shared();

	private static final long T0 = 1_699_999_200_000L;

	private final RedisRateLimitStore store = RedisRateLimitStore.builder(redis.classConnectionFactory())
		.timeout(RedisTestTimeouts.GENEROUS)
		.build();

	private final String key = "k-" + UUID.randomUUID();

	@Test
	void settleWhenATokenBucketIsReportedTenToTheEighteenShouldKeepTheKeyAsLongAsItsDebt() throws Exception {
		Window tokens = Window.tokenBucket("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens");
		Budget budget = Budget.builder("bucket-debt").window(tokens).build();
		Reservation reservation = reserve(budget, T0);

		settle(reservation, 1_000_000_000_000_000_000L, T0 + 100);
		Decision refused = store.reserve(budget, key, budget.amounts(1, Map.of("tokens", 1L)), false, T0 + 200);
		long ttl = ttl(budget);

		// clamped at 2^50 / 60,000 tokens: a debt of about 2^50 ms-tokens, 2^50 / 2,000
		// ms
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.retryAfterMillis()).isBetween(SettlementBounds.MAX_UNITS / 2_000 - 61_000,
				SettlementBounds.MAX_UNITS / 2_000);
		assertThat(ttl).isGreaterThanOrEqualTo(refused.retryAfterMillis());
	}

	@Test
	void settleWhenAFixedWindowCarriesAnExcessShouldKeepTheKeyUntilItIsPaid() throws Exception {
		Window tokens = Window.of("tokens", 2_000, Duration.ofMinutes(1)).inUnit("tokens");
		Budget budget = Budget.builder("fixed-debt").window("minute", 60, Duration.ofMinutes(1)).window(tokens).build();
		List<Reservation> inFlight = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			inFlight.add(reserve(budget, T0 + 1_000));
		}
		for (Reservation reservation : inFlight) {
			settle(reservation, 2_000, T0 + 2_000);
		}

		// 32,000 counted in the first minute: the 15 after it carry what is left
		assertThat(ttl(budget)).isGreaterThanOrEqualTo(16 * 60_000L - 2_000);
		assertThat(
				store.reserve(budget, key, budget.amounts(1, Map.of("tokens", 1L)), false, T0 + 15 * 60_000L).allowed())
			.isFalse();
		assertThat(ttl(budget)).isGreaterThanOrEqualTo(60_000L);
	}

	@Test
	void settleWhenAFixedWindowIsReportedTheLongRangeShouldSetAnExpiryRedisAccepts() throws Exception {
		Window tokens = Window.of("tokens", 1, Duration.ofDays(1)).inUnit("tokens");
		Budget budget = Budget.builder("fixed-far").window(tokens).build();

		settle(reserve(budget, T0), Long.MAX_VALUE, T0 + 1);

		assertThat(ttl(budget)).isGreaterThanOrEqualTo(SettlementBounds.MAX_KEEP_MILLIS);
	}

	private Reservation reserve(Budget budget, long now) {
		long[] amounts = budget.amounts(1, Map.of("tokens", 1L));
		Decision decision = store.reserve(budget, key, amounts, false, now);
		assertThat(decision.allowed()).isTrue();
		return Reservation.of(budget, key, decision, amounts).orElseThrow();
	}

	private void settle(Reservation reservation, long actual, long now) throws Exception {
		store.settle(reservation.settle(Map.of("tokens", actual)).orElseThrow(), now)
			.toCompletableFuture()
			.get(30, TimeUnit.SECONDS);
	}

	private long ttl(Budget budget) {
		return (Long) redis.server().call("PTTL", new RedisKeys("limiter").all(budget, key).get(0));
	}

}
