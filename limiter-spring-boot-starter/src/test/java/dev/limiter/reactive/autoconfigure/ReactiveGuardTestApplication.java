package dev.limiter.reactive.autoconfigure;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.test.web.MutableClock;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.web.bind.annotation.CrossOrigin;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A WebFlux application on Reactor Netty with reactive Spring Security's bearer tokens
 * (one good token; any other answered 401 by the authentication's failure handler), the
 * guard's own clock, and {@code /public/**} open to anyone (one route with
 * {@code @CrossOrigin}, two that take a body: one reads it, one ignores it).
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(ReactiveGuardTestApplication.Handlers.class)
class ReactiveGuardTestApplication {

	static final String GOOD_TOKEN = "sp_good";

	static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

	/** Bearer tokens looked up. */
	static final AtomicInteger lookups = new AtomicInteger();

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	NettyReactiveWebServerFactory reactorNettyServer() {
		return new NettyReactiveWebServerFactory();
	}

	@Bean
	MapReactiveUserDetailsService noUsers() {
		return new MapReactiveUserDetailsService(java.util.Map.of());
	}

	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
		ReactiveAuthenticationManager tokens = (authentication) -> {
			lookups.incrementAndGet();
			if (!GOOD_TOKEN.equals(authentication.getCredentials())) {
				return Mono.error(new BadCredentialsException("unknown token"));
			}
			return Mono.just(new UsernamePasswordAuthenticationToken("token-holder", GOOD_TOKEN,
					List.of(new SimpleGrantedAuthority("ROLE_USER"))));
		};
		AuthenticationWebFilter bearer = new AuthenticationWebFilter(tokens);
		bearer.setServerAuthenticationConverter((exchange) -> {
			String header = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
			if (header == null) {
				return Mono.empty();
			}
			String token = header.startsWith("Bearer ") ? header.substring(7) : header;
			return Mono.just(UsernamePasswordAuthenticationToken.unauthenticated("bearer", token));
		});
		bearer.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
		return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
			.formLogin(ServerHttpSecurity.FormLoginSpec::disable)
			.securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
			.authorizeExchange(
					(exchanges) -> exchanges.pathMatchers("/public/**").permitAll().anyExchange().authenticated())
			.addFilterAt(bearer, SecurityWebFiltersOrder.AUTHENTICATION)
			.build();
	}

	@RestController
	static class Handlers {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

		@CrossOrigin(origins = "https://app.example", exposedHeaders = "X-Request-Id")
		@GetMapping("/public/hello")
		String publicHello() {
			return "hello";
		}

		@PostMapping("/public/upload")
		Mono<String> upload(@RequestBody Mono<String> body) {
			return body.map((text) -> "read " + text.length());
		}

		@PostMapping("/public/ignore")
		String ignore() {
			return "ignored";
		}

	}

}
