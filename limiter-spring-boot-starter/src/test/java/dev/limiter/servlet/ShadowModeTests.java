package dev.limiter.servlet;

import java.net.http.HttpResponse;

import dev.limiter.core.KeyState;
import dev.limiter.core.Sha256;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import dev.limiter.test.web.RoutesTestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * limiter.mode=shadow: every refusal is decided, counted, logged and metered, and let
 * through marked.
 */
@RoutesHttpTest(properties = { "limiter.mode=shadow" })
@ExtendWith(OutputCaptureExtension.class)
class ShadowModeTests {

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Autowired
	private BudgetRegistry budgets;

	@Autowired
	private MeterRegistry meters;

	@Test
	void limiterWhenInShadowModeShouldAdmitEverythingStillCountAndMarkTheWouldBeRefusals(CapturedOutput output)
			throws Exception {
		store.clear();
		HttpSupport http = new HttpSupport(port);
		for (int i = 0; i < 2; i++) {
			HttpResponse<String> admitted = http.get("/plain/method", "good-shadow");
			assertThat(admitted.statusCode()).isEqualTo(200);
			assertThat(admitted.headers().firstValue("X-RateLimit-Shadow")).isEmpty();
		}
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> wouldBeRefused = http.get("/plain/method", "good-shadow");
			assertThat(wouldBeRefused.statusCode()).isEqualTo(200);
			assertThat(wouldBeRefused.body()).isEqualTo("method");
			assertThat(wouldBeRefused.headers().firstValue("X-RateLimit-Shadow")).contains("refused");
			assertThat(wouldBeRefused.headers().firstValue("X-RateLimit-Remaining")).contains("0");
			assertThat(wouldBeRefused.headers().firstValue("Retry-After")).isEmpty();
		}

		// Every request was decided by the store; the two admitted ones spent the window.
		assertThat(store.keys()).hasSize(5);
		KeyState state = store.peek(budgets.get("tight"), "t:" + Sha256.base64Url("good-shadow"),
				RoutesTestApplication.NOW.toEpochMilli());
		assertThat(state.bounds().get(0).remaining()).isZero();

		assertThat(meters.get("limiter.requests")
			.tags("budget", "tight", "outcome", "allowed", "reason", "none", "mode", "authoritative")
			.counter()
			.count()).isEqualTo(2.0);
		assertThat(meters.get("limiter.requests")
			.tags("budget", "tight", "outcome", "shadow-refused", "reason", "minute", "mode", "authoritative")
			.counter()
			.count()).isEqualTo(3.0);
		assertThat(meters.find("limiter.requests").tags("outcome", "refused").counter()).isNull();
		assertThat(output).contains("Shadow mode: budget 'tight' would have refused 1 request(s) on bound 'minute'");
		assertThat(output).doesNotContain(Sha256.base64Url("good-shadow"));
	}

}
