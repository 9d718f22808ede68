package dev.limiter.gateway.webmvc;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.cloud.gateway.server.mvc.common.Shortcut;
import org.springframework.cloud.gateway.server.mvc.filter.SimpleFilterSupplier;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The {@code Limiter} route filter of Spring Cloud Gateway's Server Web MVC: the budget a
 * route's requests are counted on.
 *
 * <pre>
 * spring.cloud.gateway.server.webmvc.routes:
 *   - id: api
 *     uri: http://backend:8080
 *     predicates: [ Path=/api/** ]
 *     filters: [ Limiter=standard ]        # or Limiter=llm,true: expensive (a lease)
 * </pre>
 *
 * In the Java DSL the same value goes in the route's attributes, where the limiter reads
 * it before the request reaches the route:
 *
 * <pre>
 * route("api").GET("/api/**", http()).before(uri(backend))
 *     .withAttributes(LimiterFilterFunctions.limiter("standard")).build();
 * </pre>
 *
 * The limiter's servlet filter counts the request before the {@code DispatcherServlet}
 * runs, once, and refuses it before anything is forwarded; the filter itself forwards the
 * request unchanged (docs/gateway.md).
 */
public final class LimiterFilterFunctions {

	/** The route attribute naming the budget (the Java DSL's form). */
	public static final String BUDGET_ATTRIBUTE = LimiterFilterFunctions.class.getName() + ".budget";

	/** The route attribute saying each request takes a lease (the Java DSL's form). */
	public static final String EXPENSIVE_ATTRIBUTE = LimiterFilterFunctions.class.getName() + ".expensive";

	/** The request attribute holding the route the request was counted as. */
	static final String COUNTED_AS_ATTRIBUTE = LimiterFilterFunctions.class.getName() + ".countedAs";

	private static final Log logger = LogFactory.getLog(LimiterFilterFunctions.class);

	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private LimiterFilterFunctions() {
	}

	/** Counts the route's requests on {@code budget}. */
	@Shortcut
	public static Limiter limiter(String budget) {
		return new Limiter(budget, false);
	}

	/**
	 * Counts the route's requests on {@code budget}; an expensive route's requests each
	 * hold a lease of the budget's concurrency bound until the downstream response has
	 * been streamed back.
	 */
	@Shortcut
	public static Limiter limiter(String budget, boolean expensive) {
		return new Limiter(budget, expensive);
	}

	/**
	 * The filter and the Java DSL's route attributes in one: a route filter that forwards
	 * the request unchanged, and the attributes that name the budget.
	 */
	public static final class Limiter
			implements HandlerFilterFunction<ServerResponse, ServerResponse>, Consumer<Map<String, Object>> {

		private final String budget;

		private final boolean expensive;

		Limiter(String budget, boolean expensive) {
			if (budget == null || budget.isBlank()) {
				throw new IllegalArgumentException("the Limiter filter needs a budget name (Limiter=<budget>)");
			}
			this.budget = budget.trim();
			this.expensive = expensive;
		}

		public String budget() {
			return budget;
		}

		public boolean expensive() {
			return expensive;
		}

		@Override
		public void accept(Map<String, Object> attributes) {
			attributes.put(BUDGET_ATTRIBUTE, budget);
			attributes.put(EXPENSIVE_ATTRIBUTE, expensive);
		}

		/**
		 * Forwards the request: it was counted before it got here. A route counted on
		 * another budget than this filter's (a Java DSL route that has the filter but not
		 * the attributes) is warned about once.
		 */
		@Override
		public ServerResponse filter(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
			Object counted = request.servletRequest().getAttribute(COUNTED_AS_ATTRIBUTE);
			if (!(counted instanceof GatewayRoutePolicy route) || !Objects.equals(route.budget(), budget)) {
				String name = (counted instanceof GatewayRoutePolicy route) ? route.routeName() : "(unnamed)";
				if (warned.add(name + "/" + budget)) {
					logger.warn("Gateway route " + name + " has the Limiter filter for budget '" + budget
							+ "' but its requests are not counted on it: in the Java DSL, put the budget in the "
							+ "route's attributes (.withAttributes(LimiterFilterFunctions.limiter(\"" + budget
							+ "\")))");
				}
			}
			return next.handle(request);
		}

		@Override
		public String toString() {
			return "Limiter=" + budget + (expensive ? ",true" : "");
		}

	}

	/** Makes {@code Limiter} known to the gateway's route configuration. */
	public static class FilterSupplier extends SimpleFilterSupplier {

		public FilterSupplier() {
			super(LimiterFilterFunctions.class);
		}

	}

}
