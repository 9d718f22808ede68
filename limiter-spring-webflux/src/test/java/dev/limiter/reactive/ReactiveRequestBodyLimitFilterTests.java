package dev.limiter.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveRequestBodyLimitFilter} on mock exchanges, run on Reactor's
 * {@code parallel} threads under BlockHound: a declared length over the bound answered at
 * once, a chunked body counted as it streams, whether the handler reads it, ignores it or
 * turns its failure into an answer of its own; the servlet bound's 413 byte for byte.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveRequestBodyLimitFilterTests {

	/** What the servlet bound writes ({@code ProblemResponseTests} holds its bytes). */
	private static final String TOO_LARGE = "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
			+ "\"detail\":\"The request body is larger than 10 bytes.\",\"error\":\"request_body_too_large\","
			+ "\"message\":\"The request body is larger than 10 bytes.\",\"limit\":10}";

	private final ReactiveRequestBodyLimitFilter filter = new ReactiveRequestBodyLimitFilter(10,
			ReactiveLimiterCors.NONE);

	private final AtomicBoolean handled = new AtomicBoolean();

	/** Reads the whole body and echoes it. */
	private final WebFilterChain echo = (exchange) -> {
		handled.set(true);
		return DataBufferUtils.join(exchange.getRequest().getBody()).flatMap((body) -> {
			exchange.getResponse().setStatusCode(HttpStatus.OK);
			return exchange.getResponse().writeWith(Mono.just(body));
		});
	};

	/** Never reads the body. */
	private final WebFilterChain ignoring = (exchange) -> {
		handled.set(true);
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		exchange.getResponse().getHeaders().set("X-Application", "yes");
		return exchange.getResponse().writeWith(Mono.just(buffer("ignored")));
	};

	@Test
	void declaredLengthWhenOverTheBoundShouldBeAnswered413AtOnce() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.post("/upload").contentLength(11).body(chunks("01234567890")));

		run(exchange, echo);

		assertThat(handled).isFalse();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(exchange.getResponse().getHeaders().getFirst("Connection")).isEqualTo("close");
		assertThat(exchange.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(exchange.getResponse().getHeaders().getFirst("Content-Type"))
			.isEqualTo("application/problem+json;charset=UTF-8");
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo(TOO_LARGE);
	}

	@Test
	void declaredLengthWhenAtTheBoundShouldPassUntouched() {
		MockServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.post("/upload").contentLength(10).body(chunks("0123456789")));

		run(exchange, echo);

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo("0123456789");
	}

	@Test
	void chunkedBodyWhenTheHandlerReadsPastTheBoundShouldBeAnswered413() {
		MockServerWebExchange exchange = chunked("012345", "67890");

		run(exchange, echo);

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo(TOO_LARGE);
	}

	@Test
	void chunkedBodyWhenTheHandlerIgnoresItShouldStillBeAnswered413() {
		MockServerWebExchange exchange = chunked("012345", "67890");

		run(exchange, ignoring);

		assertThat(handled).isTrue();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(exchange.getResponse().getHeaders().getFirst("X-Application")).isNull();
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo(TOO_LARGE);
	}

	@Test
	void chunkedBodyWhenTheHandlerAnswersItsFailureShouldBeAnswered413Instead() {
		WebFilterChain badRequest = (exchange) -> DataBufferUtils.join(exchange.getRequest().getBody())
			.then(Mono.<Void>empty())
			.onErrorResume((ex) -> {
				exchange.getResponse().setStatusCode(HttpStatus.BAD_REQUEST);
				return exchange.getResponse().writeWith(Mono.just(buffer("unreadable")));
			});
		MockServerWebExchange exchange = chunked("012345", "67890");

		run(exchange, badRequest);

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.PAYLOAD_TOO_LARGE);
		assertThat(exchange.getResponse().getBodyAsString().block()).isEqualTo(TOO_LARGE);
	}

	@Test
	void chunkedBodyWhenAtTheBoundShouldPassUntouched() {
		MockServerWebExchange read = chunked("01234", "56789");
		MockServerWebExchange ignored = chunked("01234", "56789");

		run(read, echo);
		run(ignored, ignoring);

		assertThat(read.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(read.getResponse().getBodyAsString().block()).isEqualTo("0123456789");
		assertThat(ignored.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(ignored.getResponse().getBodyAsString().block()).isEqualTo("ignored");
	}

	private void run(ServerWebExchange exchange, WebFilterChain chain) {
		filter.filter(exchange, chain).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10));
	}

	private static MockServerWebExchange chunked(String... chunks) {
		return MockServerWebExchange
			.from(MockServerHttpRequest.post("/upload").header("Transfer-Encoding", "chunked").body(chunks(chunks)));
	}

	private static Flux<DataBuffer> chunks(String... chunks) {
		return Flux.fromArray(chunks).map(ReactiveRequestBodyLimitFilterTests::buffer);
	}

	private static DataBuffer buffer(String text) {
		return DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

}
