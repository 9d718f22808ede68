package dev.limiter.benchmarks.peers.gateway;

import java.security.Principal;
import java.util.HashMap;
import java.util.Map;

import dev.limiter.benchmarks.peers.PeerRoute;
import dev.limiter.gateway.webflux.LimiterGatewayFilterFactory;
import dev.limiter.spring.RateLimitCredential;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.server.WebFilter;

/**
 * One Spring Cloud Gateway route, {@code /**} to {@code gateway.backend}, in the variant
 * {@code gateway.variant} names: {@code none} (no limiter), {@code redis-rate-limiter}
 * ({@code RequestRateLimiter} with a {@code RedisRateLimiter} of
 * {@code gateway.replenish-rate} a second and {@code gateway.burst-capacity}, keyed by a
 * {@code KeyResolver} on the {@code Authorization} header) or {@code limiter} (the
 * {@code Limiter} filter on budget {@code gateway}: a {@code token-bucket} window of the
 * same rate and burst, on Redis, keyed on the same header). The header reaches limiter as
 * the smallest authentication there is would expose it: a web filter, in every variant so
 * that each pays for it, makes any bearer token the request's principal, a
 * {@link RateLimitCredential} of the token's SHA-256. Run by
 * {@code benchmarks/gateway.py}; never in {@code mvn verify}.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class GatewayPeerApplication {

	public static void main(String[] args) {
		Map<String, Object> defaults = new HashMap<>();
		// the benchmarks' class path holds Spring MVC and bucket4j-spring-boot-starter
		// too:
		// neither runs here
		defaults.put("spring.main.web-application-type", "reactive");
		defaults.put("bucket4j.enabled", "false");
		defaults.put("spring.main.banner-mode", "off");
		defaults.put("gateway.replenish-rate", "1000");
		defaults.put("gateway.burst-capacity", "200000");
		defaults.put("limiter.store", "redis");
		defaults.put("limiter.default-budget", "gateway");
		defaults.put("limiter.budgets.gateway.windows.bucket.algorithm", "token-bucket");
		defaults.put("limiter.budgets.gateway.windows.bucket.limit", "${gateway.replenish-rate}");
		defaults.put("limiter.budgets.gateway.windows.bucket.duration", "1s");
		defaults.put("limiter.budgets.gateway.windows.bucket.burst", "${gateway.burst-capacity}");
		PeerRoute.start(GatewayPeerApplication.class, defaults, args);
	}

	/**
	 * Reactor Netty, the gateway's own server: Boot would pick Tomcat first, which the
	 * servlet peers put on this class path.
	 */
	@Bean
	NettyReactiveWebServerFactory nettyServer() {
		return new NettyReactiveWebServerFactory();
	}

	@Bean
	RouteLocator gatewayRoute(RouteLocatorBuilder routes, @Value("${gateway.variant}") String variant,
			@Value("${gateway.backend}") String backend, ObjectProvider<RedisRateLimiter> redisRateLimiter,
			ObjectProvider<LimiterGatewayFilterFactory> limiter, KeyResolver authorizationKey) {
		return routes.routes().route("constant", (route) -> route.path("/**").filters((filters) -> switch (variant) {
			case "none" -> filters;
			case "redis-rate-limiter" -> filters.requestRateLimiter(
					(config) -> config.setRateLimiter(redisRateLimiter.getObject()).setKeyResolver(authorizationKey));
			case "limiter" -> filters.filter(limiter.getObject().apply((config) -> config.setBudget("gateway")));
			default -> throw new IllegalArgumentException(
					"gateway.variant: none, redis-rate-limiter or limiter, not '" + variant + "'");
		}).uri(backend)).build();
	}

	/**
	 * Spring Cloud Gateway's documented form: the rate, the burst, one token a request.
	 */
	@Bean
	RedisRateLimiter redisRateLimiter(@Value("${gateway.replenish-rate}") int replenishRate,
			@Value("${gateway.burst-capacity}") int burstCapacity) {
		return new RedisRateLimiter(replenishRate, burstCapacity, 1);
	}

	@Bean
	KeyResolver authorizationKey() {
		return (exchange) -> Mono.justOrEmpty(exchange.getRequest().getHeaders().getFirst("Authorization"));
	}

	/** Before limiter's filter, as an application's authentication is. */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	WebFilter bearerPrincipal() {
		return (exchange, chain) -> {
			String authorization = exchange.getRequest().getHeaders().getFirst("Authorization");
			if (authorization == null || !authorization.startsWith("Bearer ")) {
				return chain.filter(exchange);
			}
			Principal principal = new BearerPrincipal(PeerRoute.sha256(authorization.substring(7)));
			return chain.filter(exchange.mutate().principal(Mono.just(principal)).build());
		};
	}

	/** A caller known by its bearer token, which it names only as a digest. */
	record BearerPrincipal(byte[] rateLimitCredentialSha256) implements Principal, RateLimitCredential {

		@Override
		public String getName() {
			return "bearer";
		}

	}

}
