package dev.limiter.gateway.webflux;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.limiter.core.Budget;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.reactive.ReactiveRateLimitUsage;
import dev.limiter.spring.RoutePolicy;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * One route's {@code Limiter} filter. It runs before the gateway's response writer
 * ({@link NettyWriteResponseFilter}), so that what an admission holds (a concurrency
 * lease, a reservation) is handed back only once the downstream response has been
 * streamed back to the client, and before anything is forwarded, so that a refused
 * request never reaches the backend. On an admission the counter headers go onto the
 * downstream response; the backend's usage report, when configured, is read from it and
 * stripped before it commits.
 */
final class LimiterGatewayFilter implements GatewayFilter, Ordered {

	/** Before the response writer, whose work happens after the rest of the chain. */
	static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

	private final ReactiveRateLimitFilter limiter;

	private final String budget;

	private final boolean expensive;

	private final Map<String, Long> estimates;

	private final UsageReportHeader reportHeader;

	/**
	 * The policy of the route last served: made once for a route the gateway named at the
	 * filter's creation, else from the route of the first request (a Java DSL route).
	 */
	private volatile RoutePolicy policy;

	/**
	 * @param routeId the route's id when the gateway named it ({@code null}: read from
	 * the request's route)
	 */
	LimiterGatewayFilter(ReactiveRateLimitFilter limiter, String routeId, String budget, boolean expensive,
			Map<String, Long> estimates, UsageReportHeader reportHeader) {
		this.limiter = limiter;
		this.budget = budget;
		this.expensive = expensive;
		this.estimates = estimates;
		this.reportHeader = reportHeader;
		this.policy = (routeId != null) ? policyOf(routeId) : null;
	}

	String budget() {
		return budget;
	}

	boolean expensive() {
		return expensive;
	}

	/** The {@code Limiter} filter {@code route} carries, {@code null} when none. */
	static LimiterGatewayFilter of(Route route) {
		for (GatewayFilter filter : route.getFilters()) {
			GatewayFilter unwrapped = (filter instanceof OrderedGatewayFilter ordered) ? ordered.getDelegate() : filter;
			if (unwrapped instanceof LimiterGatewayFilter limiter) {
				return limiter;
			}
		}
		return null;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		return limiter.filter(exchange, policyOf(exchange), (admitted) -> {
			if (reportHeader != null) {
				ServerHttpResponse response = admitted.getResponse();
				response.beforeCommit(() -> Mono.fromRunnable(() -> settleReport(admitted, response)));
			}
			return chain.filter(admitted);
		});
	}

	/** The policy of the route the gateway matched, made once per route. */
	private RoutePolicy policyOf(ServerWebExchange exchange) {
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		String routeId = (route != null) ? route.getId() : null;
		RoutePolicy known = policy;
		if (known != null && Objects.equals(known.pattern(), routeId)) {
			return known;
		}
		RoutePolicy made = policyOf(routeId);
		policy = made;
		return made;
	}

	private RoutePolicy policyOf(String routeId) {
		return new RoutePolicy(routeId, budget, expensive, false, null, estimates);
	}

	/**
	 * Reads the backend's report into what the request reserved, once, and strips it: the
	 * client never sees it.
	 */
	private void settleReport(ServerWebExchange exchange, ServerHttpResponse response) {
		List<String> values = ResponseHeaders.take(response.getHeaders(), reportHeader.name());
		Budget counted = exchange.getAttribute(ReactiveRateLimitFilter.BUDGET_ATTRIBUTE);
		ReactiveRateLimitUsage.of(exchange).ifPresent((usage) -> reportHeader.report(values, counted, usage));
	}

	@Override
	public String toString() {
		return LimiterGatewayFilterFactory.NAME + "[budget=" + budget + (expensive ? ", expensive" : "")
				+ (estimates.isEmpty() ? "" : ", estimates=" + estimates) + "]";
	}

}
