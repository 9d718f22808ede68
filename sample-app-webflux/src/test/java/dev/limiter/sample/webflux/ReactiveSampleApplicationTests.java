package dev.limiter.sample.webflux;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import dev.limiter.sample.SampleApplication;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The WebFlux sample over a real port, with no Servlet API, Tomcat or Spring MVC on its
 * class path: it starts, and limits as the README's "Try it" says (60 pings a minute per
 * address, then the contract's 429; the demo token on the standard budget; a trial token
 * counted as the address that minted it; a completion reporting its tokens).
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = { SampleApplication.class, ReactiveSampleApplicationTests.OneMinute.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.expensive-delay=10ms")
class ReactiveSampleApplicationTests {

	private static final String DEMO_TOKEN = "sp_DEMO0000000000000000000000000001";

	@LocalServerPort
	int port;

	@Test
	void classPathWhenTheSampleRunsShouldHoldNoServletApiTomcatOrSpringMvc() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("jakarta.servlet.Filter"));
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.apache.catalina.startup.Tomcat"));
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.springframework.web.servlet.DispatcherServlet"));
	}

	@Test
	void pingWhenAnAddressSpendsItsMinuteShouldBeRefusedWithTheContract() {
		WebTestClient client = client();
		// the other tests' anonymous calls from this address count in the same minute
		String remaining = client.get()
			.uri("/public/ping")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "60")
			.returnResult(String.class)
			.getResponseHeaders()
			.getFirst("X-RateLimit-Remaining");
		for (int i = 0; i < Integer.parseInt(remaining); i++) {
			client.get().uri("/public/ping").exchange().expectStatus().isOk();
		}
		client.get()
			.uri("/public/ping")
			.exchange()
			.expectStatus()
			.isEqualTo(429)
			.expectHeader()
			.exists("Retry-After")
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "60")
			.expectHeader()
			.valueEquals("X-RateLimit-Remaining", "0")
			.expectHeader()
			.exists("RateLimit-Policy")
			.expectHeader()
			.valueEquals("Content-Type", "application/problem+json;charset=UTF-8")
			.expectBody()
			.jsonPath("$.budget")
			.isEqualTo("anonymous")
			.jsonPath("$.bound")
			.isEqualTo("minute");
	}

	@Test
	void recallWhenDemoTokenShouldBeAdmittedOnTheStandardBudget() {
		client().post()
			.uri("/s/recall")
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("X-RateLimit-Limit", "600")
			.expectHeader()
			.valueEquals("RateLimit-Policy",
					"\"minute\";q=600;w=60, \"hour\";q=36000;w=3600, \"concurrency\";q=10;qu=\"concurrent-requests\"");
	}

	@Test
	void recallWhenTokenIsUnknownShouldAnswer401Problem() {
		client().post()
			.uri("/s/recall")
			.header("Authorization", "Bearer sp_UNKNOWN000000000000000000000000")
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.expectHeader()
			.valueEquals("WWW-Authenticate", "Bearer error=\"invalid_token\"")
			.expectBody()
			.jsonPath("$.error")
			.isEqualTo("invalid_token");
	}

	@Test
	void trialTokenWhenUsedShouldBeCountedOnTheAnonymousBudget() {
		EntityExchangeResult<Map> minted = client().post()
			.uri("/try")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(Map.class)
			.returnResult();
		String token = (String) minted.getResponseBody().get("token");

		client().post()
			.uri("/s/remember")
			.header("Authorization", "Bearer " + token)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("RateLimit-Policy",
					"\"minute\";q=60;w=60, \"hour\";q=1000;w=3600, \"concurrency\";q=2;qu=\"concurrent-requests\"");
	}

	@Test
	void completionWhenItReportsTokensShouldBeSettledAgainstItsReservation() {
		client().post()
			.uri("/s/complete")
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"tokens\": 1500}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.value("RateLimit", (value) -> assertThat(value).contains("\"tokens\";r=1900;"));
		// the first completion's report (1,500 for the 100 reserved) is settled: 400 left
		client().post()
			.uri("/s/complete")
			.header("Authorization", "Bearer " + DEMO_TOKEN)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"tokens\": 1}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.value("RateLimit", (value) -> assertThat(value).contains("\"tokens\";r=400;"));
	}

	private WebTestClient client() {
		// a connection per exchange, closed with it: a connection left open in Reactor
		// Netty's shared pool keeps the server's graceful shutdown, and the test JVM's
		// exit, waiting
		return WebTestClient
			.bindToServer(new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider.newConnection())))
			.baseUrl("http://127.0.0.1:" + port)
			.build();
	}

	/** Every request of the run falls in one minute, whatever the wall clock does. */
	@TestConfiguration(proxyBeanMethods = false)
	static class OneMinute {

		@Bean(name = "limiterClock", defaultCandidate = false)
		Clock limiterClock() {
			return Clock.fixed(Instant.parse("2030-01-01T00:00:05Z"), ZoneOffset.UTC);
		}

	}

}
