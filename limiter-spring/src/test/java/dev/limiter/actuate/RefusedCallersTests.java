package dev.limiter.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

import dev.limiter.actuate.RefusedCallers.RefusedCaller;
import dev.limiter.actuate.RefusedCallers.Top;
import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The most-refused callers: the heavy ones first with counts within the stated error,
 * memory that stays the same however many callers there are, and a window of minutes.
 */
class RefusedCallersTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));

	@Test
	void topWhenTenThousandCallersAndFiveHeavyOnesShouldListTheFiveFirstWithinTheError() {
		RefusedCallers refused = new RefusedCallers(clock, 128, 5);
		List<String> refusals = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			refusals.add("t:light-" + i);
		}
		Set<String> heavy = Set.of("t:heavy-0", "t:heavy-1", "t:heavy-2", "t:heavy-3", "t:heavy-4");
		for (String key : heavy) {
			refusals.addAll(Collections.nCopies(300, key));
		}
		Collections.shuffle(refusals, new Random(36));
		for (String key : refusals) {
			refused.refused(key, "standard", key.startsWith("t:heavy") ? "user-" + key : null);
		}

		Top top = refused.top(10);
		assertThat(top.refusals()).isEqualTo(11_500);
		assertThat(top.maxError()).isEqualTo(90); // 11,500 / 128, rounded up
		assertThat(top.callers().subList(0, 5)).extracting(RefusedCaller::key)
			.containsExactlyInAnyOrderElementsOf(heavy);
		assertThat(top.callers().subList(0, 5)).allSatisfy((caller) -> {
			assertThat(caller.refusals()).isBetween(300L, 300L + top.maxError());
			assertThat(caller.refusals() - caller.errorBound()).isLessThanOrEqualTo(300);
			assertThat(caller.principal()).isEqualTo("user-" + caller.key());
			assertThat(caller.budget()).isEqualTo("standard");
			assertThat(caller.lookup()).isEqualTo("keys/" + caller.key() + "?budget=standard");
		});
		assertThat(top.callers().subList(5, 10))
			.allSatisfy((caller) -> assertThat(caller.refusals()).isLessThanOrEqualTo(1 + top.maxError()));
	}

	@Test
	void retainedEntriesWhenCallersGrowShouldStayWithinTheCapacityPerMinute() {
		RefusedCallers refused = new RefusedCallers(clock, 64, 3);
		for (int i = 0; i < 1_000; i++) {
			refused.refused("a:10.0." + i, "anonymous", null);
		}
		int afterAThousand = refused.retainedEntries();
		for (int i = 0; i < 100_000; i++) {
			refused.refused("a:10.1." + i, "anonymous", null);
		}
		assertThat(afterAThousand).isEqualTo(64);
		assertThat(refused.retainedEntries()).isEqualTo(afterAThousand);
		for (int minute = 0; minute < 10; minute++) {
			advanceAMinute();
			for (int i = 0; i < 10_000; i++) {
				refused.refused("a:10." + minute + "." + i, "anonymous", null);
			}
			assertThat(refused.retainedEntries()).isLessThanOrEqualTo(3 * 64);
		}
	}

	@Test
	void topWhenRefusalsAreOlderThanTheWindowShouldForgetThem() {
		RefusedCallers refused = new RefusedCallers(clock, 16, 2);
		refused.refused("t:old", "standard", null);
		advanceAMinute();
		refused.refused("t:recent", "standard", null);
		assertThat(refused.top(10).callers()).extracting(RefusedCaller::key)
			.containsExactlyInAnyOrder("t:old", "t:recent");
		advanceAMinute();
		assertThat(refused.top(10).callers()).extracting(RefusedCaller::key).containsExactly("t:recent");
		assertThat(refused.top(10).refusals()).isEqualTo(1);
	}

	private void advanceAMinute() {
		clock.set(clock.instant().plus(Duration.ofMinutes(1)));
	}

}
