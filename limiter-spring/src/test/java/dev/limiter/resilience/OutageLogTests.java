package dev.limiter.resilience;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One WARN to open an outage and one INFO to close it, however often the store fails or
 * answers in between (the filters' log and the fail-open store's are this one class).
 */
class OutageLogTests {

	private final RecordingLog log = new RecordingLog();

	private final OutageLog outage = new OutageLog(log, "store {store} failed: ", "store {store} answers again");

	@Test
	void degradedWhenCalledOftenShouldWarnOnce() {
		outage.degraded("redis", new IllegalStateException("timeout"));
		outage.degraded("redis", new IllegalStateException("timeout"));
		outage.degraded("redis", new IllegalStateException("refused"));

		assertThat(log.lines).containsExactly("WARN store redis failed: IllegalStateException: timeout");
	}

	@Test
	void recoveredWhenNoOutageIsOpenShouldSayNothing() {
		outage.recovered("redis");

		assertThat(log.lines).isEmpty();
	}

	@Test
	void recoveredWhenAnOutageIsOpenShouldLogOneInfoAndCloseIt() {
		outage.degraded("redis", new IllegalStateException("timeout"));
		outage.recovered("redis");
		outage.recovered("redis");

		assertThat(log.lines).containsExactly("WARN store redis failed: IllegalStateException: timeout",
				"INFO store redis answers again");
		assertThat(outage.failing()).isFalse();
	}

	@Test
	void degradedWhenASecondOutageStartsShouldWarnAgain() {
		outage.degraded("redis", new IllegalStateException("timeout"));
		outage.recovered("redis");
		outage.degraded("redis", new IllegalStateException("refused"));

		assertThat(log.lines).containsExactly("WARN store redis failed: IllegalStateException: timeout",
				"INFO store redis answers again", "WARN store redis failed: IllegalStateException: refused");
	}

	@Test
	void degradedWhenTheFailureWrapsAnotherShouldNameTheRootCauseOnOneLine() {
		outage.degraded("redis", new RuntimeException("wrapper", new IllegalStateException("line\r\nbreak")));

		assertThat(log.lines).containsExactly("WARN store redis failed: IllegalStateException: line  break");
	}

	private static final class RecordingLog extends NoOpLog {

		final List<String> lines = new ArrayList<>();

		@Override
		public void warn(Object message) {
			lines.add("WARN " + message);
		}

		@Override
		public void info(Object message) {
			lines.add("INFO " + message);
		}

	}

}
