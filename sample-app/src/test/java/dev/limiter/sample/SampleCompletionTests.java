package dev.limiter.sample;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;

import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code completion} budget's demo (README) over a real port, counted in memory; and
 * a body that is no completion request is a 400, not a 500.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleCompletionTests {

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("limiterClock")
	private MutableClock clock;

	@Test
	void completionWhenTokensReportedExceedTheMinuteShouldRefuseUntilItsEndNamingTheTokensWindow() throws Exception {
		// later than the other test's minute, whichever runs first: a clock going back
		// counts in the newest window seen
		clock.set(Instant.parse("2030-01-01T02:00:01Z"));
		List<HttpResponse<String>> demo = CompletionDemo.run((call) -> port);

		HttpContractExamples.assertShows("units-admitted", demo.get(1));
		HttpContractExamples.assertShows("units-refused", demo.get(2));
	}

	@Test
	void completionWhenTheBodyIsNoCompletionRequestShouldAnswer400() throws Exception {
		clock.set(Instant.parse("2030-01-01T01:00:01Z"));
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
