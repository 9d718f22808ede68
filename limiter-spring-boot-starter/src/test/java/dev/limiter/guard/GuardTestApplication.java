package dev.limiter.guard;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.limiter.test.web.MutableClock;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.DefaultAuthenticationEventPublisher;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A servlet application with Spring Security's own {@link AuthenticationFilter} and
 * {@link ProviderManager} (which publishes authentication events):
 * {@code Bearer sp_good...} is valid (any token with that prefix),
 * {@code Bearer slow-...} waits on {@link #slowLookups} and then fails, anything else
 * fails. Every lookup is counted in {@link #lookups}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GuardTestApplication {

	public static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

	public static final String GOOD_TOKEN = "sp_good0000000000000000000000000001";

	static final AtomicInteger lookups = new AtomicInteger();

	/** Requests the {@code hello} handler answered. */
	static final AtomicInteger handled = new AtomicInteger();
	static final AtomicReference<CountDownLatch> slowLookups = new AtomicReference<>(new CountDownLatch(0));

	/**
	 * {@code /slow-handler} counts down {@link #handlerEntered} and then waits for this
	 * gate.
	 */
	static final AtomicReference<CountDownLatch> handlerGate = new AtomicReference<>(new CountDownLatch(0));
	static final AtomicReference<CountDownLatch> handlerEntered = new AtomicReference<>(new CountDownLatch(1));

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, ApplicationEventPublisher events) throws Exception {
		ProviderManager manager = new ProviderManager(new TokenLookup());
		manager.setAuthenticationEventPublisher(new DefaultAuthenticationEventPublisher(events));
		AuthenticationFilter bearer = new AuthenticationFilter(manager, GuardTestApplication::bearerToken);
		bearer.setSuccessHandler((request, response, authentication) -> {
		});
		bearer.setFailureHandler(
				new AuthenticationEntryPointFailureHandler(new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED)));
		return http.csrf(csrf -> csrf.disable())
			.sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize.requestMatchers("/public/**", "/error")
				.permitAll()
				.anyRequest()
				.authenticated())
			.exceptionHandling(e -> e.authenticationEntryPoint(new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED)))
			.addFilterBefore(bearer, AnonymousAuthenticationFilter.class)
			.build();
	}

	/**
	 * No header: no authentication attempt. Any header that is not {@code Bearer <token>}
	 * is a failed one.
	 */
	static Authentication bearerToken(HttpServletRequest request) {
		String header = request.getHeader("Authorization");
		if (header == null) {
			return null;
		}
		if (!header.startsWith("Bearer ") || header.length() == "Bearer ".length()) {
			throw new BadCredentialsException("malformed Authorization header");
		}
		return new BearerToken(header.substring("Bearer ".length()));
	}

	static final class BearerToken extends AbstractAuthenticationToken {

		private final String token;

		BearerToken(String token) {
			super(List.of());
			this.token = token;
		}

		@Override
		public Object getCredentials() {
			return token;
		}

		@Override
		public Object getPrincipal() {
			return "bearer";
		}

	}

	static final class TokenLookup implements AuthenticationProvider {

		@Override
		public Authentication authenticate(Authentication authentication) {
			lookups.incrementAndGet();
			String token = (String) authentication.getCredentials();
			if (token.startsWith("slow-")) {
				try {
					slowLookups.get().await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			if (token.startsWith("sp_good")) {
				return UsernamePasswordAuthenticationToken.authenticated("good", null, List.of());
			}
			throw new BadCredentialsException("unknown token");
		}

		@Override
		public boolean supports(Class<?> authentication) {
			return BearerToken.class.isAssignableFrom(authentication);
		}

	}

	@RestController
	static class TestController {

		private final Clock clock;

		TestController(@Qualifier("limiterClock") Clock clock) {
			this.clock = clock;
		}

		@GetMapping({ "/hello", "/public/hello", "/expensive", "/trial" })
		String hello() {
			handled.incrementAndGet();
			return "hello";
		}

		/** A handler that runs long after authentication ended. */
		@GetMapping("/slow-handler")
		String slowHandler() throws InterruptedException {
			handlerEntered.get().countDown();
			handlerGate.get().await(30, TimeUnit.SECONDS);
			return "slow";
		}

		/** What the handler saw of the body: its length and SHA-256. */
		@PostMapping("/public/echo")
		String echo(@RequestBody(required = false) byte[] body) throws Exception {
			byte[] bytes = body == null ? new byte[0] : body;
			return bytes.length + ":" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}

		/** Ignores whatever body it is sent. */
		@PostMapping("/public/ignore")
		String ignore() {
			return "ignored";
		}

		/** The same, reading the raw servlet stream. */
		@PostMapping("/public/echo-stream")
		String echoStream(HttpServletRequest request) throws Exception {
			try (InputStream in = request.getInputStream()) {
				byte[] bytes = in.readAllBytes();
				return bytes.length + ":"
						+ HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
			}
		}

	}

	static String sha256(byte[] bytes) throws IOException {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IOException(ex);
		}
	}

}
