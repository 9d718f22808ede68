package dev.limiter.web;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OutageLogTests {

	private final RecordingLog log = new RecordingLog();

	private final OutageLog outage = new OutageLog(log, "store failed: ", "store answers again");

	@Test
	void failedWhenCalledOftenShouldWarnOnce() {
		outage.failed("timeout");
		outage.failed("timeout");
		outage.failed("refused");

		assertThat(log.warnings).containsExactly("store failed: timeout");
	}

	@Test
	void answeredWhenNoOutageIsOpenShouldSayNothing() {
		outage.answered();

		assertThat(log.warnings).isEmpty();
	}

	@Test
	void answeredWhenAnOutageIsOpenShouldWarnOnceAndCloseIt() {
		outage.failed("timeout");
		outage.answered();
		outage.answered();

		assertThat(log.warnings).containsExactly("store failed: timeout", "store answers again");
		assertThat(outage.failing()).isFalse();
	}

	@Test
	void failedWhenASecondOutageStartsShouldWarnAgain() {
		outage.failed("timeout");
		outage.answered();
		outage.failed("refused");

		assertThat(log.warnings).containsExactly("store failed: timeout", "store answers again",
				"store failed: refused");
	}

	private static final class RecordingLog extends NoOpLog {

		final List<String> warnings = new ArrayList<>();

		@Override
		public void warn(Object message) {
			warnings.add(String.valueOf(message));
		}

	}

}
