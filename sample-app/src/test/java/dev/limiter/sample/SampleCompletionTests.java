package dev.limiter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code completion} budget's demo (README) over a real port, counted in memory; a
 * body that is no completion request is a 400, not a 500; and the month's 80 % logged
 * once. The tests run in time order on the limiter's clock (a clock going back counts in
 * the newest window and period seen): June 2029, December 2029, then the demo in January
 * 2030, a month nothing counted in before.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(OutputCaptureExtension.class)
class SampleCompletionTests {

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Test
	@Order(1)
	void completionWhenTheMonthReachesEightyPercentShouldLogOneThresholdLine(CapturedOutput output) throws Exception {
		clock.set(Instant.parse("2029-06-15T10:00:01Z"));
		assertThat(CompletionDemo.complete(port, 160_000).statusCode()).isEqualTo(200);
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		// the report is settled when the request ends, perhaps after its response, and
		// the settlement itself reports the month at 80 %: no other request is needed
		while (!output.getOut().contains("Quota threshold:") && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		// a following decision does not report it again
		CompletionDemo.complete(port, 1);

		assertThat(output.getOut()).containsOnlyOnce("Quota threshold: budget=completion window=month key=");
		assertThat(output.getOut()).containsPattern("Quota threshold: budget=completion window=month key=\\S+ at=80%");
	}

	@Test
	@Order(3)
	void completionWhenTokensReportedExceedTheMinuteShouldRefuseUntilItsEndNamingTheTokensWindow() throws Exception {
		// later than the other tests' minutes: a clock going back counts in the newest
		// window seen
		clock.set(Instant.parse("2030-01-01T02:00:01Z"));
		List<HttpResponse<String>> demo = CompletionDemo.run((call) -> port);

		HttpContractExamples.assertShows("units-admitted", demo.get(1));
		HttpContractExamples.assertShows("units-refused", demo.get(2));
	}

	@Test
	@Order(2)
	void completionWhenTheBodyIsNoCompletionRequestShouldAnswer400() throws Exception {
		// 31 December 2029, 23:00:01 in Berlin: still December's month
		clock.set(Instant.parse("2029-12-31T22:00:01Z"));
		assertThat(CompletionDemo.complete(port, -1).statusCode()).isEqualTo(400);
		assertThat(CompletionDemo.complete(port, 5).statusCode()).isEqualTo(200);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class LimiterClockConfiguration {

		@Bean(name = "limiterClock")
		MutableClock limiterClock() {
			return new MutableClock(Instant.parse("2030-01-01T00:00:01Z"));
		}

	}

}
