package dev.limiter.gateway.webmvc;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.limiter.routes.NamedRoute;

import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * One gateway route whose handler names it: the limiter's servlet filter, which finds the
 * handler before the {@code DispatcherServlet} runs, counts the request under the route's
 * id and on the budget of its {@code Limiter} filter; the handler then settles a usage
 * report of the downstream response. The start-up inventory is told the same through
 * {@link NamedRoute#ATTRIBUTE}.
 */
public final class LimitedRouterFunction implements RouterFunction<ServerResponse> {

	/** What the inventory's visitor is handed once the route's own routes are visited. */
	private static final Map<String, Object> END = Map.of(NamedRoute.ATTRIBUTE, "");

	private final GatewayRoutePolicy policy;

	private final RouterFunction<ServerResponse> delegate;

	private final Supplier<UsageReports> reports;

	public LimitedRouterFunction(GatewayRoutePolicy policy, RouterFunction<ServerResponse> delegate,
			Supplier<UsageReports> reports) {
		this.policy = policy;
		this.delegate = delegate;
		this.reports = reports;
	}

	@Override
	public Optional<HandlerFunction<ServerResponse>> route(ServerRequest request) {
		return delegate.route(request).map((handler) -> new RouteHandler(handler));
	}

	@Override
	public void accept(RouterFunctions.Visitor visitor) {
		visitor.attributes(Map.of(NamedRoute.ATTRIBUTE, policy));
		delegate.accept(visitor);
		visitor.attributes(END);
	}

	@Override
	public String toString() {
		return "limited " + policy + " " + delegate;
	}

	/** The route's handler, named: what the limiter's route resolver recognises. */
	final class RouteHandler implements HandlerFunction<ServerResponse>, NamedRoute {

		private final HandlerFunction<ServerResponse> handler;

		RouteHandler(HandlerFunction<ServerResponse> handler) {
			this.handler = handler;
		}

		@Override
		public String routeName() {
			return policy.routeName();
		}

		@Override
		public String budget() {
			return policy.budget();
		}

		@Override
		public boolean expensive() {
			return policy.expensive();
		}

		@Override
		public ServerResponse handle(ServerRequest request) throws Exception {
			request.servletRequest().setAttribute(LimiterFilterFunctions.COUNTED_AS_ATTRIBUTE, policy);
			ServerResponse response = handler.handle(request);
			UsageReports usageReports = reports.get();
			if (usageReports != null) {
				usageReports.settle(request.servletRequest(), response.headers());
			}
			return response;
		}

	}

}
