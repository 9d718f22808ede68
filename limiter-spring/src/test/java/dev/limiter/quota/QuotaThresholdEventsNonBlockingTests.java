package dev.limiter.quota;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.core.ThresholdCrossing;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.test.reactive.BlockHoundExtension;
import dev.limiter.test.reactive.NonBlockingThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A settlement's crossings arrive on the thread its store answered on, which may be an
 * event loop: handing them to {@link QuotaThresholdEvents} never blocks that thread, even
 * from many non-blocking threads at once and with a listener that blocks (it runs on the
 * publisher's own thread).
 */
@ExtendWith(BlockHoundExtension.class)
class QuotaThresholdEventsNonBlockingTests {

	private static final List<ThresholdCrossing> CROSSED = List
		.of(new ThresholdCrossing("pro", "p:caller", "hour", 80, 85, 100, 1_700_000_000_000L));

	@Test
	void onSettlementCrossingsWhenCalledFromNonBlockingThreadsShouldNeverBlockThemAndPublishEveryEvent() {
		List<QuotaThresholdEvent> published = new CopyOnWriteArrayList<>();
		QuotaThresholdEvents events = new QuotaThresholdEvents((event) -> {
			try {
				// a listener that blocks: on the publisher's thread, never the caller's
				Thread.sleep(1);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			published.add((QuotaThresholdEvent) event);
		});
		try {
			NonBlockingThreads.run(() -> {
				events.onSettlementCrossings(CROSSED, "alice");
				return true;
			});
			Flux.range(0, 256)
				.parallel()
				.runOn(Schedulers.parallel())
				.doOnNext((i) -> events.onSettlementCrossings(CROSSED, "alice"))
				.sequential()
				.blockLast();
		}
		finally {
			events.close();
		}

		assertThat(published).hasSize(257)
			.allSatisfy((event) -> assertThat(event.getPrincipalName()).contains("alice"));
	}

	@Test
	void onSettlementCrossingsWhenManyNonBlockingThreadsHandOverAtOnceShouldNeverWaitForEachOther() {
		AtomicInteger published = new AtomicInteger();
		QuotaThresholdEvents events = new QuotaThresholdEvents((event) -> published.incrementAndGet());
		int handOvers = 4 * QuotaThresholdEvents.MAX_PENDING;
		try {
			// every parallel thread hands over in a tight loop: a lock in the hand-off is
			// contended here, and a contended lock parks the thread
			Flux.range(0, handOvers)
				.parallel()
				.runOn(Schedulers.parallel())
				.doOnNext((i) -> events.onSettlementCrossings(CROSSED, "alice"))
				.sequential()
				.blockLast();
		}
		finally {
			events.close();
		}

		// some may be dropped if the publisher falls behind by the bound; none is lost
		// otherwise
		assertThat(published.get()).isPositive().isLessThanOrEqualTo(handOvers);
	}

	@Test
	void onSettlementCrossingsWhenTheListenerIsStuckShouldKeepTheBoundAndPublishTheRestOnClose() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger published = new AtomicInteger();
		QuotaThresholdEvents events = new QuotaThresholdEvents((event) -> {
			entered.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			published.incrementAndGet();
		});
		try {
			events.onSettlementCrossings(CROSSED, "alice");
			assertThat(entered.await(10, TimeUnit.SECONDS)).as("the first event reached the listener").isTrue();
			// the listener holds the first; the bound's worth wait, ten more are dropped
			for (int i = 0; i < QuotaThresholdEvents.MAX_PENDING + 10; i++) {
				events.onSettlementCrossings(CROSSED, "alice");
			}
			release.countDown();
		}
		finally {
			events.close();
		}

		assertThat(published.get()).isEqualTo(1 + QuotaThresholdEvents.MAX_PENDING);
	}

}
