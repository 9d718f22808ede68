package dev.limiter.sample.gateway;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;

/**
 * A Spring Cloud Gateway in front of {@code sample-app} (routes in
 * {@code application.yml}): the gateway's own security accepts the demo token, so that
 * the {@code Limiter} filter counts the caller it established; the token is forwarded
 * too, and the backend authenticates it again.
 */
@SpringBootApplication
public class SampleGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleGatewayApplication.class, args);
	}

	/** The demo token, and nothing else, authenticates (as the demo user). */
	@Bean
	ReactiveAuthenticationManager demoTokenAuthentication(@Value("${sample.demo-token}") String demoToken) {
		return (authentication) -> demoToken.equals(authentication.getCredentials())
				? Mono.just(UsernamePasswordAuthenticationToken.authenticated("demo", demoToken,
						List.of(new SimpleGrantedAuthority("ROLE_USER"))))
				: Mono.error(new BadCredentialsException("unknown token"));
	}

	@Bean
	SecurityWebFilterChain gatewaySecurity(ServerHttpSecurity http, ReactiveAuthenticationManager tokens) {
		AuthenticationWebFilter bearer = new AuthenticationWebFilter(tokens);
		bearer.setServerAuthenticationConverter(
				(exchange) -> Mono.justOrEmpty(exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION))
					.filter((value) -> value.startsWith("Bearer "))
					.map((value) -> UsernamePasswordAuthenticationToken.unauthenticated("bearer",
							value.substring("Bearer ".length()))));
		return http.authorizeExchange((exchanges) -> exchanges.anyExchange().permitAll())
			.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
			.formLogin(ServerHttpSecurity.FormLoginSpec::disable)
			// a bearer-token front door keeps no session: the default request cache would
			// create a WebSession on every request (and hop to another thread to make its
			// id)
			.requestCache((cache) -> cache.requestCache(NoOpServerRequestCache.getInstance()))
			.addFilterAt(bearer, SecurityWebFiltersOrder.AUTHENTICATION)
			.build();
	}

}
