package dev.limiter.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * WebFlux's functional routes ({@code RouterFunction}), read as Spring MVC's are
 * ({@code dev.limiter.routes.FunctionalRoutes}, over the servlet twins of these types):
 * nested path prefixes joined with the route's own path and methods. A route whose
 * predicate has no path, or an or/negation, stands for everything under its prefix.
 */
final class ReactiveFunctionalRoutes implements RouterFunctions.Visitor {

	/** Where each readable route goes. */
	@FunctionalInterface
	interface Sink {

		void route(List<String> methods, String pattern, String handler);

	}

	private final Sink sink;

	private final List<String> prefixes = new ArrayList<>();

	ReactiveFunctionalRoutes(Sink sink) {
		this.sink = sink;
	}

	@Override
	public void startNested(RequestPredicate predicate) {
		PredicateShape shape = PredicateShape.of(predicate);
		prefixes.add(shape.path == null ? "" : shape.path);
	}

	@Override
	public void endNested(RequestPredicate predicate) {
		prefixes.remove(prefixes.size() - 1);
	}

	@Override
	public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
		PredicateShape shape = PredicateShape.of(predicate);
		String prefix = String.join("", prefixes);
		String pattern = prefix + (shape.path == null ? "" : shape.path);
		if (pattern.isEmpty() || shape.unreadable) {
			pattern = prefix + "/**";
		}
		sink.route(List.copyOf(shape.methods), pattern, "route " + predicate);
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

	/**
	 * The first path and the methods of a predicate; {@code unreadable} when it has an
	 * or/negation.
	 */
	private static final class PredicateShape implements RequestPredicates.Visitor {

		String path;

		final Set<String> methods = new TreeSet<>();

		boolean unreadable;

		static PredicateShape of(RequestPredicate predicate) {
			PredicateShape shape = new PredicateShape();
			predicate.accept(shape);
			return shape;
		}

		@Override
		public void method(Set<HttpMethod> httpMethods) {
			httpMethods.forEach(method -> methods.add(method.name()));
		}

		@Override
		public void path(String pattern) {
			if (path == null) {
				path = pattern;
			}
		}

		// No @Override: Framework 7 deprecates pathExtension for removal and adds
		// version; both lines must compile.
		public void pathExtension(String extension) {
		}

		public void version(String version) {
		}

		@Override
		public void header(String name, String value) {
		}

		@Override
		public void queryParam(String name, String value) {
		}

		@Override
		public void startAnd() {
		}

		@Override
		public void and() {
		}

		@Override
		public void endAnd() {
		}

		@Override
		public void startOr() {
			unreadable = true;
		}

		@Override
		public void or() {
		}

		@Override
		public void endOr() {
		}

		@Override
		public void startNegate() {
			unreadable = true;
		}

		@Override
		public void endNegate() {
		}

		@Override
		public void unknown(RequestPredicate predicate) {
		}

	}

}
