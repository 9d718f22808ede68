package dev.limiter.metrics;

import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/** Meter values after a known sequence of requests, on the in-memory registry. */
@RoutesHttpTest
// A fresh context: the counts below are exact, and another test class with the same
// properties shares the cached one and would have its requests counted here too.
@DirtiesContext(classMode = DirtiesContext.ClassMode.BEFORE_CLASS)
class LimiterMetersTests {

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	private MeterRegistry meters;

	@Test
	void metersWhenAKnownSequenceRunsShouldCountItWithBoundedTags() throws Exception {
		assertThat(meters).isInstanceOf(SimpleMeterRegistry.class);
		store.clear();
		HttpSupport http = new HttpSupport(port);
		for (int i = 0; i < 3; i++) {
			http.get("/plain/method", "good-meter"); // tight, 2 a minute: allowed,
														// allowed, refused
		}
		http.get("/plain/exempt", "good-meter"); // exempt
		http.get("/plain/exempt", null); // exempt
		http.get("/class", null); // anonymous, 1 of 60

		assertThat(count("tight", "allowed", "none", "authoritative")).isEqualTo(2.0);
		assertThat(count("tight", "refused", "minute", "authoritative")).isEqualTo(1.0);
		assertThat(count("anonymous", "allowed", "none", "authoritative")).isEqualTo(1.0);
		assertThat(count("none", "exempt", "none", "none")).isEqualTo(2.0);
		assertThat(meters.get("limiter.requests").counters()).hasSize(4);

		// The second tight request left 0 of 2: below 20 %. The first left 1 of 2,
		// anonymous left 59 of 60.
		assertThat(meters.get("limiter.near.limit").tags("budget", "tight", "window", "minute").counter().count())
			.isEqualTo(1.0);
		assertThat(meters.get("limiter.near.limit").counters()).hasSize(1);
		assertThat(meters.get("limiter.store.latency").tags("store", "recording").timer().count()).isEqualTo(4);

		for (Meter meter : meters.getMeters()) {
			if (meter.getId().getName().startsWith("limiter.")) {
				// the Observations' timers (limiter.decision, ...) are named and
				// described
				// by their convention; their limiter.route is the masked pattern
				boolean observed = meter.getId().getTag("limiter.budget") != null;
				if (!observed) {
					assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
				}
				assertThat(meter.getId().getTags()).allSatisfy(tag -> {
					assertThat(tag.getValue()).doesNotContain("t:").doesNotContain("good-meter");
					if (!tag.getKey().equals("limiter.route")) {
						assertThat(tag.getValue()).doesNotStartWith("/");
					}
				});
			}
		}
	}

	private double count(String budget, String outcome, String reason, String mode) {
		return meters.get("limiter.requests")
			.tags("budget", budget, "outcome", outcome, "reason", reason, "mode", mode)
			.counter()
			.count();
	}

}
