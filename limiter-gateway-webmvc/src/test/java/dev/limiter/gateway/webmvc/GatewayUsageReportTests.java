package dev.limiter.gateway.webmvc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code limiter.gateway.report-header} on a gateway route whose budget counts tokens
 * ({@code usage}, {@code Limiter=tokens}: each request reserves 1 token): the amount the
 * backend reports is settled once and the header never reaches the client; a response
 * without the header, or with one that is not an amount, leaves the estimate counted and
 * is counted in {@code limiter.settlements.dropped}.
 */
class GatewayUsageReportTests {

	private static Backend backend;

	private static ConfigurableApplicationContext gateway;

	private static MeterRegistry meters;

	private final String caller = UUID.randomUUID().toString();

	@BeforeAll
	static void start() throws Exception {
		backend = Backend.start();
		gateway = Gateways.start(backend, "limiter.gateway.report-header=" + Backend.REPORT_HEADER);
		meters = gateway.getBean(MeterRegistry.class);
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		if (backend != null) {
			backend.close();
		}
	}

	@Test
	void reportedAmountShouldBeSettledOnceAndStrippedBeforeTheClientSeesIt() throws Exception {
		double settledBefore = count("limiter.units.settled");

		HttpResponse<String> response = Gateways.get(gateway, "/usage/report/1234", caller);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("ok");
		assertThat(response.headers().firstValue(Backend.REPORT_HEADER)).as("never forwarded to the client").isEmpty();
		awaitCount("limiter.units.settled", settledBefore + 1233);
		Thread.sleep(200);
		assertThat(count("limiter.units.settled")).as("settled once: 1234 reported, 1 reserved")
			.isEqualTo(settledBefore + 1233);
	}

	@Test
	void responseWithoutTheHeaderShouldKeepTheEstimateAndCountAMissingReport() throws Exception {
		double missingBefore = dropped("missing");
		double settledBefore = count("limiter.units.settled");

		HttpResponse<String> response = Gateways.get(gateway, "/usage/plain", caller);

		assertThat(response.statusCode()).isEqualTo(200);
		awaitValue(() -> dropped("missing"), missingBefore + 1);
		assertThat(count("limiter.units.settled")).isEqualTo(settledBefore);
	}

	@Test
	void malformedReportShouldKeepTheEstimateAndCountAMalformedReport() throws Exception {
		double malformedBefore = dropped("malformed");
		double settledBefore = count("limiter.units.settled");

		HttpResponse<String> response = Gateways.get(gateway, "/usage/report/12abc", caller);

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue(Backend.REPORT_HEADER)).isEmpty();
		awaitValue(() -> dropped("malformed"), malformedBefore + 1);
		assertThat(count("limiter.units.settled")).isEqualTo(settledBefore);
	}

	private static double count(String name) {
		Counter counter = meters.find(name).tag("budget", "tokens").tag("unit", "tokens").counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static double dropped(String reason) {
		Counter counter = meters.find("limiter.settlements.dropped")
			.tag("budget", "tokens")
			.tag("reason", reason)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static void awaitCount(String name, double expected) throws InterruptedException {
		awaitValue(() -> count(name), expected);
	}

	/** Settlements are sent off the response path: waits for the meter to say so. */
	private static void awaitValue(Supplier<Double> value, double expected) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (value.get() < expected && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(value.get()).isEqualTo(expected);
	}

}
