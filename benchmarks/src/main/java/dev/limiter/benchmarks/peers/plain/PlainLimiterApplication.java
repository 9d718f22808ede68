package dev.limiter.benchmarks.peers.plain;

import java.io.IOException;
import java.security.Principal;
import java.util.Map;

import dev.limiter.benchmarks.peers.PeerRoute;
import dev.limiter.spring.RateLimitCredential;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * limiter as lean as the HTTP peers: a plain Boot app (no Spring Security, no observation
 * of a filter chain) with the limiter starter on Redis, in front of the same constant
 * route ({@link PeerRoute}). The peers key on the bearer token without authenticating it;
 * here the smallest authentication there is stands in for the application's: a filter
 * that takes any bearer token as the request's principal, which exposes the token's
 * SHA-256 ({@link RateLimitCredential}) as limiter's own authentication integrations do.
 * limiter then keys on that credential as on any authenticated request, with the sample
 * app's budget. {@code limiter.enabled=false} is its own limiter-off run (the principal
 * filter still runs), and {@code spring.data.redis.client-type=jedis} its Jedis run. Run
 * by {@code benchmarks/run}; never in {@code mvn verify}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@Import(PeerRoute.class)
public class PlainLimiterApplication {

	public static void main(String[] args) {
		// bucket4j-spring-boot-starter shares the benchmarks' class path: it does not run
		// here
		PeerRoute.start(PlainLimiterApplication.class,
				Map.of("bucket4j.enabled", "false", "limiter.store", "redis", "spring.main.banner-mode", "off"), args);
	}

	/** Before limiter's filter, as an application's authentication is. */
	@Bean
	FilterRegistrationBean<OncePerRequestFilter> bearerPrincipalFilter() {
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
				new OncePerRequestFilter() {

					@Override
					protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
							FilterChain chain) throws ServletException, IOException {
						String authorization = request.getHeader("Authorization");
						if (authorization == null || !authorization.startsWith("Bearer ")) {
							chain.doFilter(request, response);
							return;
						}
						BearerPrincipal principal = new BearerPrincipal(PeerRoute.sha256(authorization.substring(7)));
						chain.doFilter(new HttpServletRequestWrapper(request) {

							@Override
							public Principal getUserPrincipal() {
								return principal;
							}

						}, response);
					}

				});
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		return registration;
	}

	/**
	 * The sample app's {@code GET /public/ping}: a response that is not shared-cacheable,
	 * so {@code benchmarks/httprounds.py} sees limiter's headers on it when limiter is
	 * on.
	 */
	@RestController
	static class PingRoute {

		@GetMapping("/public/ping")
		String ping() {
			return "pong";
		}

	}

	/** A caller known by its bearer token, which it names only as a digest. */
	record BearerPrincipal(byte[] rateLimitCredentialSha256) implements Principal, RateLimitCredential {

		@Override
		public String getName() {
			return "bearer";
		}

	}

}
