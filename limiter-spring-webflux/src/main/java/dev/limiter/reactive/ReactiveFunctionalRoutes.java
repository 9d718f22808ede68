package dev.limiter.reactive;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.limiter.routes.FunctionalRouteWalk;
import reactor.core.publisher.Mono;

import org.springframework.core.io.Resource;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * WebFlux's functional routes ({@code RouterFunction}), read as Spring MVC's are, by
 * {@link FunctionalRouteWalk} (which says how): this visitor only hands it WebFlux's
 * types. Named (gateway) routes are Spring MVC's alone, so it passes on no attributes.
 */
final class ReactiveFunctionalRoutes implements RouterFunctions.Visitor {

	/** Where each readable route goes. */
	@FunctionalInterface
	interface Sink {

		void route(List<String> methods, String pattern, String handler);

	}

	private final FunctionalRouteWalk<RequestPredicate> walk;

	ReactiveFunctionalRoutes(Sink sink) {
		this.walk = new FunctionalRouteWalk<>(ReactivePredicateShape::of,
				(methods, pattern, handler, named) -> sink.route(methods, pattern, handler));
	}

	@Override
	public void startNested(RequestPredicate predicate) {
		walk.startNested(predicate);
	}

	@Override
	public void endNested(RequestPredicate predicate) {
		walk.endNested();
	}

	@Override
	public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
		walk.route(predicate);
	}

	@Override
	public void resources(Function<ServerRequest, Mono<Resource>> lookupFunction) {
	}

	@Override
	public void attributes(Map<String, Object> attributes) {
	}

	@Override
	public void unknown(RouterFunction<?> routerFunction) {
	}

	/** A predicate's shape, read with WebFlux's predicate visitor. */
	private static final class ReactivePredicateShape extends FunctionalRouteWalk.PredicateShape
			implements RequestPredicates.Visitor {

		static ReactivePredicateShape of(RequestPredicate predicate) {
			ReactivePredicateShape shape = new ReactivePredicateShape();
			predicate.accept(shape);
			return shape;
		}

		@Override
		public void queryParam(String name, String value) {
		}

		@Override
		public void unknown(RequestPredicate predicate) {
		}

	}

}
