package dev.limiter.web;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

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
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.web.bind.annotation.CrossOrigin;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * An application that lets {@value #ALLOWED} call it from a browser in the three ways
 * Spring offers: {@code @CrossOrigin} on a controller ({@code /cross/**}), a
 * {@code CorsRegistry} mapping ({@code /registry/**}) and, with the profile
 * {@value #SECURITY_CORS}, Spring Security's {@code http.cors(...)} with a
 * {@link CorsConfigurationSource} bean ({@code /sec/**}). The first and the last expose a
 * header of the application's own. A request with {@code Authorization: Bearer bad} fails
 * authentication (401).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class CorsTestApplication implements WebMvcConfigurer {

	static final String ALLOWED = "http://app.example";

	static final String APPLICATION_EXPOSED = "X-App-Trace";

	/** The profile of the Spring Security variant. */
	static final String SECURITY_CORS = "security-cors";

	static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	RateLimitStore recordingStore() {
		return new RecordingStore();
	}

	@Override
	public void addCorsMappings(CorsRegistry registry) {
		registry.addMapping("/registry/**").allowedOrigins(ALLOWED).allowedMethods("GET", "POST");
	}

	@Bean
	@Profile("!" + SECURITY_CORS)
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		return chain(http).build();
	}

	static HttpSecurity chain(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
			.addFilterBefore(new BadTokenFilter(), AnonymousAuthenticationFilter.class);
	}

	/**
	 * Spring Security's CORS, whose filter answers every preflight (and refuses one
	 * outside {@code /sec/**}).
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile(SECURITY_CORS)
	static class SecurityCors {

		@Bean
		CorsConfigurationSource corsConfigurationSource() {
			CorsConfiguration configuration = new CorsConfiguration();
			configuration.setAllowedOrigins(List.of(ALLOWED));
			configuration.setAllowedMethods(List.of("GET", "POST"));
			configuration.setExposedHeaders(List.of(APPLICATION_EXPOSED));
			UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
			source.registerCorsConfiguration("/sec/**", configuration);
			return source;
		}

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			return chain(http).cors(Customizer.withDefaults()).build();
		}

	}

	/** {@code Bearer bad}: a failed authentication. */
	static final class BadTokenFilter extends OncePerRequestFilter {

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			if ("Bearer bad".equals(request.getHeader("Authorization"))) {
				response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
				return;
			}
			chain.doFilter(request, response);
		}

	}

	@RestController
	@CrossOrigin(origins = ALLOWED, exposedHeaders = APPLICATION_EXPOSED)
	static class CrossOriginController {

		@GetMapping("/cross/hello")
		String hello() {
			return "hello";
		}

	}

	@RestController
	static class PlainController {

		@GetMapping({ "/registry/hello", "/sec/hello" })
		String hello() {
			return "hello";
		}

		@PostMapping({ "/registry/upload", "/sec/upload" })
		String upload() {
			return "uploaded";
		}

	}

}
