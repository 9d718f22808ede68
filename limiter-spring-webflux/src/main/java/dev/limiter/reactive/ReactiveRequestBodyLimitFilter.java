package dev.limiter.reactive;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.limiter.web.body.BodyBound;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * {@code limiter.max-request-body} on WebFlux, the servlet bound's answers
 * ({@link BodyBound}): a request that declares a larger {@code Content-Length} is refused
 * with 413 at once, before a byte of its body is read. A body of undeclared length
 * (chunked) is counted as it streams through: the buffer that passes the bound fails the
 * body's stream, whatever the application then answers is dropped, and the response is
 * 413. What the application left unread is read (up to the bound, each buffer released)
 * before its answer is written, so a handler that ignores the body cannot wave an
 * oversized one through. Never a blocking read: the body is a stream of buffers.
 */
public final class ReactiveRequestBodyLimitFilter implements WebFilter, Ordered {

	/** Ahead of every filter that reads a body, Spring Security's included. */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

	private final long maxBytes;

	private final ReactiveLimiterCors cors;

	/**
	 * @param cors the CORS headers the 413 carries, so that a browser on another origin
	 * can read it
	 */
	public ReactiveRequestBodyLimitFilter(long maxBytes, ReactiveLimiterCors cors) {
		this.maxBytes = BodyBound.checked(maxBytes);
		this.cors = cors;
	}

	public long maxBytes() {
		return maxBytes;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		long declared = exchange.getRequest().getHeaders().getContentLength();
		if (declared > maxBytes) {
			return refuse(exchange);
		}
		if (declared >= 0) {
			// the server reads no more than the declared length
			return chain.filter(exchange);
		}
		BoundedBody body = new BoundedBody(exchange.getRequest().getBody());
		ServerWebExchange bounded = exchange.mutate().request(new ServerHttpRequestDecorator(exchange.getRequest()) {

			@Override
			public Flux<DataBuffer> getBody() {
				return body.read();
			}

		}).response(new DroppingAfterOverflowResponse(exchange, body)).build();
		return chain.filter(bounded).onErrorResume((ex) -> body.overflowed(), (ex) -> refuse(exchange));
	}

	/** The 413, over whatever the application set on the response. */
	private Mono<Void> refuse(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		if (response.isCommitted()) {
			return Mono.empty();
		}
		response.getHeaders().clear();
		return cors.write(exchange, BodyBound.tooLarge(maxBytes));
	}

	/** The request body, counted as it streams through; read at most once. */
	private final class BoundedBody {

		private final Flux<DataBuffer> source;

		private final AtomicLong read = new AtomicLong();

		private volatile boolean subscribed;

		private volatile boolean overflowed;

		BoundedBody(Flux<DataBuffer> source) {
			this.source = source;
		}

		Flux<DataBuffer> read() {
			return Flux.defer(() -> {
				subscribed = true;
				return source.handle((buffer, sink) -> {
					if (read.addAndGet(buffer.readableByteCount()) > maxBytes) {
						overflowed = true;
						DataBufferUtils.release(buffer);
						sink.error(new RequestBodyTooLargeException(maxBytes));
					}
					else {
						sink.next(buffer);
					}
				});
			});
		}

		boolean overflowed() {
			return overflowed;
		}

		/**
		 * Reads what the application never asked for, up to the bound, releasing every
		 * buffer; completes once it is known whether the body overflowed.
		 */
		Mono<Void> drained() {
			if (subscribed) {
				return Mono.empty();
			}
			return read().doOnNext(DataBufferUtils::release)
				.then()
				.onErrorResume(RequestBodyTooLargeException.class, (ex) -> Mono.empty());
		}

	}

	/**
	 * Before the application's answer is written, the body it left unread is read up to
	 * the bound; once the body overflowed, the answer is dropped for the 413.
	 */
	private final class DroppingAfterOverflowResponse extends ServerHttpResponseDecorator {

		private final ServerWebExchange exchange;

		private final BoundedBody body;

		DroppingAfterOverflowResponse(ServerWebExchange exchange, BoundedBody body) {
			super(exchange.getResponse());
			this.exchange = exchange;
			this.body = body;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> answer) {
			return answerOr413((response) -> response.writeWith(answer));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> answer) {
			return answerOr413((response) -> response.writeAndFlushWith(answer));
		}

		@Override
		public Mono<Void> setComplete() {
			return answerOr413(ServerHttpResponse::setComplete);
		}

		private Mono<Void> answerOr413(Function<ServerHttpResponse, Mono<Void>> write) {
			return body.drained().then(Mono.defer(() -> {
				if (!body.overflowed()) {
					return write.apply(getDelegate());
				}
				// the application's answer is never subscribed to: the 413 goes instead
				return refuse(exchange);
			}));
		}

	}

	/** The body's stream failed at the buffer that passed the bound. */
	static final class RequestBodyTooLargeException extends RuntimeException {

		RequestBodyTooLargeException(long maxBytes) {
			super("The request body is larger than " + maxBytes + " bytes", null, false, false);
		}

	}

}
