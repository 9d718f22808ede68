package dev.limiter.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import dev.limiter.core.RateLimitStore;
import dev.limiter.test.web.MutableClock;
import dev.limiter.test.web.RecordingStore;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.core.OAuth2TokenIntrospectionClaimNames;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A plain application as a new user writes one: Spring Security's real JWT resource
 * server (HS256) for {@code /jwt/**}, its opaque-token resource server with a stub
 * introspector for {@code /opaque/**}, and an {@code X-Api-Key} filter plus HTTP Basic
 * for {@code /partner/**}, where a bearer header plays no part.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class IdentityTestApplication {

	public static final byte[] SECRET = "an-hs256-secret-of-at-least-32-bytes!!".getBytes(StandardCharsets.UTF_8);

	public static final String ISSUER = "https://issuer.example";

	public static final String API_KEY = "pk_partner_0001";

	public static final Instant NOW = Instant.parse("2030-01-01T00:00:05Z");

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	RateLimitStore recordingStore() {
		return new RecordingStore();
	}

	@Bean
	UserDetailsService users() {
		return new InMemoryUserDetailsManager(User.withUsername("basic-user").password("{noop}pw").build());
	}

	@Bean
	@Order(1)
	SecurityFilterChain partnerChain(HttpSecurity http) throws Exception {
		return stateless(http.securityMatcher("/partner/**")).httpBasic(Customizer.withDefaults())
			.addFilterBefore(new ApiKeyFilter(), BasicAuthenticationFilter.class)
			.build();
	}

	@Bean
	@Order(2)
	SecurityFilterChain opaqueChain(HttpSecurity http) throws Exception {
		return stateless(http.securityMatcher("/opaque/**"))
			.oauth2ResourceServer(server -> server.opaqueToken(opaque -> opaque.introspector(introspector())))
			.build();
	}

	@Bean
	@Order(3)
	SecurityFilterChain jwtChain(HttpSecurity http) throws Exception {
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(new SecretKeySpec(SECRET, "HmacSHA256")).build();
		return stateless(http).oauth2ResourceServer(server -> server.jwt(jwt -> jwt.decoder(decoder))).build();
	}

	private static HttpSecurity stateless(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize.anyRequest().authenticated());
	}

	/**
	 * Accepts {@code op_<subject>_<anything>}: every such token is a distinct credential
	 * of that subject.
	 */
	static OpaqueTokenIntrospector introspector() {
		return token -> {
			String[] parts = token.split("_", 3);
			if (parts.length != 3 || !parts[0].equals("op")) {
				throw new BadOpaqueTokenException("unknown token");
			}
			Map<String, Object> attributes = Map.of(OAuth2TokenIntrospectionClaimNames.ACTIVE, true,
					OAuth2TokenIntrospectionClaimNames.SUB, parts[1]);
			OAuth2AuthenticatedPrincipal principal = new OAuth2IntrospectionAuthenticatedPrincipal(attributes,
					List.of());
			return principal;
		};
	}

	/**
	 * An API key in its own header; the application's authentication exposes no
	 * credential to the limiter.
	 */
	static final class ApiKeyFilter extends OncePerRequestFilter {

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			if (API_KEY.equals(request.getHeader("X-Api-Key"))) {
				SecurityContextHolder.getContext()
					.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("partner-1", null, List.of()));
			}
			chain.doFilter(request, response);
		}

	}

	@RestController
	static class IdentityController {

		@GetMapping({ "/jwt/hello", "/jwt/subject", "/partner/hello", "/opaque/hello", "/opaque/subject" })
		String hello() {
			return "ok";
		}

	}

}
