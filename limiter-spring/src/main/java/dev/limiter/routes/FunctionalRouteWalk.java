package dev.limiter.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.springframework.http.HttpMethod;

/**
 * How the route inventory reads functional routes ({@code RouterFunction}) on either web
 * stack, over neither stack's types: nested path prefixes joined with the route's own
 * path and methods. A route whose predicate has no path, or an or/negation, stands for
 * everything under its prefix. A route visited under a {@link NamedRoute} (a gateway
 * route) is named by it.
 *
 * <p>
 * Spring MVC and WebFlux each declare their own {@code RouterFunctions.Visitor} and
 * {@code RequestPredicates.Visitor}: each stack's router visitor
 * ({@link FunctionalRoutes}, {@code dev.limiter.reactive.ReactiveFunctionalRoutes})
 * forwards its calls here, and reads a predicate with a {@link PredicateShape} subclass
 * that implements its stack's predicate visitor. This class names no type of either
 * stack, so that an application without the Servlet API (or without WebFlux) can load it.
 *
 * @param <P> the stack's {@code RequestPredicate}
 */
public final class FunctionalRouteWalk<P> {

	/** Where each readable route goes. */
	@FunctionalInterface
	public interface Sink {

		/**
		 * @param named the gateway route it serves, {@code null} for an application's own
		 * route
		 */
		void route(List<String> methods, String pattern, String handler, NamedRoute named);

	}

	private final Function<P, ? extends PredicateShape> shapes;

	private final Sink sink;

	private final List<String> prefixes = new ArrayList<>();

	/** The named route whose routes are visited now ({@link NamedRoute#ATTRIBUTE}). */
	private NamedRoute named;

	/**
	 * @param shapes reads one predicate with the stack's predicate visitor
	 * @param sink where each route goes
	 */
	public FunctionalRouteWalk(Function<P, ? extends PredicateShape> shapes, Sink sink) {
		this.shapes = shapes;
		this.sink = sink;
	}

	/** The visitor's {@code startNested}: the predicate's path prefixes what follows. */
	public void startNested(P predicate) {
		PredicateShape shape = shapes.apply(predicate);
		prefixes.add(shape.path == null ? "" : shape.path);
	}

	/** The visitor's {@code endNested}. */
	public void endNested() {
		prefixes.remove(prefixes.size() - 1);
	}

	/** The visitor's {@code route}: one route, handed to the sink. */
	public void route(P predicate) {
		PredicateShape shape = shapes.apply(predicate);
		String prefix = String.join("", prefixes);
		String pattern = prefix + (shape.path == null ? "" : shape.path);
		if (pattern.isEmpty() || shape.unreadable) {
			pattern = prefix + "/**";
		}
		String handler = (named != null) ? named.label() : "route " + predicate;
		sink.route(List.copyOf(shape.methods), pattern, handler, named);
	}

	/**
	 * The visitor's {@code attributes}: a {@link NamedRoute} names the routes that
	 * follow.
	 */
	public void attributes(Map<String, Object> attributes) {
		if (attributes.containsKey(NamedRoute.ATTRIBUTE)) {
			named = (attributes.get(NamedRoute.ATTRIBUTE) instanceof NamedRoute route) ? route : null;
		}
	}

	/**
	 * The first path and the methods of a predicate; {@code unreadable} when it has an
	 * or/negation. The visitor methods both stacks' {@code RequestPredicates.Visitor}
	 * declare with the same signature live here, public, so that a subclass implementing
	 * either interface inherits them as its implementations; the subclass adds only the
	 * methods that name its stack's types or differ by name ({@code param} on Spring MVC,
	 * {@code queryParam} on WebFlux, {@code unknown(RequestPredicate)}), and calls the
	 * predicate's {@code accept} with itself.
	 */
	public abstract static class PredicateShape {

		private String path;

		private final Set<String> methods = new TreeSet<>();

		private boolean unreadable;

		public void method(Set<HttpMethod> httpMethods) {
			httpMethods.forEach(method -> methods.add(method.name()));
		}

		public void path(String pattern) {
			if (path == null) {
				path = pattern;
			}
		}

		// Framework 7 deprecates pathExtension for removal and adds version; a subclass
		// implements both lines' interfaces.
		public void pathExtension(String extension) {
		}

		public void version(String version) {
		}

		public void header(String name, String value) {
		}

		public void startAnd() {
		}

		public void and() {
		}

		public void endAnd() {
		}

		public void startOr() {
			unreadable = true;
		}

		public void or() {
		}

		public void endOr() {
		}

		public void startNegate() {
			unreadable = true;
		}

		public void endNegate() {
		}

	}

}
