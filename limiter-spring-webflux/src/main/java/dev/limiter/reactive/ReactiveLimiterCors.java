package dev.limiter.reactive;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.limiter.web.ExposedHeaders;
import dev.limiter.web.ProblemResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.cors.reactive.DefaultCorsProcessor;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;

/**
 * What a browser on another origin needs to read the limiter's own answers on WebFlux
 * (the servlet's {@code CorsHeaders}, docs/http-contract.md "Browsers and CORS"): the
 * CORS headers the application's configuration gives the request, unless a filter before
 * (a {@code CorsWebFilter}, Spring Security's {@code cors()}) set them already: its
 * {@link CorsConfigurationSource} beans first, then WebFlux's own configuration of the
 * handler ({@code @CrossOrigin}, {@code WebFluxConfigurer.addCorsMappings}), which the
 * handler mappings apply as they find the handler; then, when the origin is allowed, the
 * limiter's headers in {@code Access-Control-Expose-Headers}. An origin the configuration
 * refuses gets no CORS headers, never a 403; a preflight is never answered here.
 */
public final class ReactiveLimiterCors {

	private static final Log logger = LogFactory.getLog(ReactiveLimiterCors.class);

	/**
	 * No configuration of the application's: only the exposing of the limiter's headers.
	 */
	public static final ReactiveLimiterCors NONE = new ReactiveLimiterCors(List::of, List::of);

	private final Supplier<List<CorsConfigurationSource>> sources;

	private final Supplier<List<HandlerMapping>> mappings;

	private final DefaultCorsProcessor processor = new NonRejectingCorsProcessor();

	/**
	 * @param sources the application's configurations, asked in order until one has a
	 * configuration for the request; looked up once, on first use
	 * @param mappings WebFlux's handler mappings in their order, asked for the handler's
	 * own configuration when no source had one
	 */
	public ReactiveLimiterCors(Supplier<List<CorsConfigurationSource>> sources,
			Supplier<List<HandlerMapping>> mappings) {
		this.sources = SingletonSupplier.of(Objects.requireNonNull(sources, "sources"));
		this.mappings = Objects.requireNonNull(mappings, "mappings");
	}

	/**
	 * Adds the CORS headers to a response the limiter is about to write itself; completes
	 * once they are set. A configuration that fails is logged and leaves the response as
	 * it is.
	 */
	public Mono<Void> apply(ServerWebExchange exchange) {
		ServerHttpRequest request = exchange.getRequest();
		HttpHeaders headers = exchange.getResponse().getHeaders();
		if (!CorsUtils.isCorsRequest(request) || CorsUtils.isPreFlightRequest(request)
				|| headers.getAccessControlAllowOrigin() != null) {
			return Mono.fromRunnable(() -> expose(exchange.getResponse()));
		}
		Mono<Void> configured = Mono.defer(() -> {
			CorsConfiguration configuration = configurationFor(exchange);
			if (configuration != null) {
				processor.process(configuration, exchange);
				return Mono.empty();
			}
			return handlerConfiguration(exchange);
		});
		return configured.onErrorResume((ex) -> {
			logger.warn("CORS configuration of the application failed; the limiter's response goes out without "
					+ "CORS headers: " + ex);
			return Mono.empty();
		}).then(Mono.fromRunnable(() -> expose(exchange.getResponse())));
	}

	/**
	 * Writes the limiter's own answer, readable by a browser on an allowed origin: the
	 * CORS headers first (finding the handler's configuration may set a status of its
	 * own), then the problem, whose status and headers are set last.
	 */
	public Mono<Void> write(ServerWebExchange exchange, ProblemResponse problem) {
		return apply(exchange).then(Mono.defer(() -> ReactiveProblems.write(exchange, problem)));
	}

	private CorsConfiguration configurationFor(ServerWebExchange exchange) {
		for (CorsConfigurationSource source : sources.get()) {
			CorsConfiguration configuration = source.getCorsConfiguration(exchange);
			if (configuration != null) {
				return configuration;
			}
		}
		return null;
	}

	/**
	 * WebFlux's mappings write the handler's CORS headers as they find it; a refusal of
	 * theirs (a 403 status) is not the limiter's answer, and the status it is about to
	 * write replaces it.
	 */
	private Mono<Void> handlerConfiguration(ServerWebExchange exchange) {
		return Flux.fromIterable(mappings.get())
			.concatMap((mapping) -> mapping.getHandler(exchange).onErrorResume((ex) -> Mono.empty()))
			.next()
			.then();
	}

	/**
	 * Adds the limiter's headers to {@code Access-Control-Expose-Headers} when the
	 * response allows an origin, after what the application exposes, each name once.
	 */
	static void expose(ServerHttpResponse response) {
		HttpHeaders headers = response.getHeaders();
		if (headers.getAccessControlAllowOrigin() == null) {
			return;
		}
		headers.set(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS,
				ExposedHeaders.value(headers.getValuesAsList(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS)));
	}

	/**
	 * Spring's processor, except that an origin or method the configuration refuses
	 * leaves the limiter's response alone instead of turning it into a 403.
	 */
	private static final class NonRejectingCorsProcessor extends DefaultCorsProcessor {

		@Override
		protected void rejectRequest(ServerHttpResponse response) {
		}

	}

}
