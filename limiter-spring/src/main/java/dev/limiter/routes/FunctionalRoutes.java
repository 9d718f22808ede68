package dev.limiter.routes;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.core.io.Resource;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;

/**
 * Spring MVC's functional routes, read by {@link FunctionalRouteWalk} (which says how):
 * this visitor only hands it Spring MVC's types.
 */
final class FunctionalRoutes implements RouterFunctions.Visitor {

	private final FunctionalRouteWalk<RequestPredicate> walk;

	FunctionalRoutes(FunctionalRouteWalk.Sink sink) {
		this.walk = new FunctionalRouteWalk<>(MvcPredicateShape::of, sink);
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
	public void resources(Function<ServerRequest, Optional<Resource>> lookupFunction) {
	}

	@Override
	public void attributes(Map<String, Object> attributes) {
		walk.attributes(attributes);
	}

	@Override
	public void unknown(RouterFunction<?> routerFunction) {
	}

	/** A predicate's shape, read with Spring MVC's predicate visitor. */
	private static final class MvcPredicateShape extends FunctionalRouteWalk.PredicateShape
			implements RequestPredicates.Visitor {

		static MvcPredicateShape of(RequestPredicate predicate) {
			MvcPredicateShape shape = new MvcPredicateShape();
			predicate.accept(shape);
			return shape;
		}

		@Override
		public void param(String name, String value) {
		}

		@Override
		public void unknown(RequestPredicate predicate) {
		}

	}

}
