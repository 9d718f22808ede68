package dev.limiter.test.web;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;

import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Controllers covering every precedence combination. Budgets used (set by each test's
 * properties): {@code tight}, {@code loose}, {@code per-route}.
 * {@code Authorization: Bearer good-<name>} authenticates as {@code <name>}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class RoutesTestApplication {

	public static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	/** Every test app property set needs these budgets; each test adds its own. */
	public static final String TIGHT = "limiter.budgets.tight.windows.minute.limit=2";

	public static final String TIGHT_DURATION = "limiter.budgets.tight.windows.minute.duration=1m";

	public static final String LOOSE = "limiter.budgets.loose.windows.minute.limit=100";

	public static final String LOOSE_DURATION = "limiter.budgets.loose.windows.minute.duration=1m";

	public static final String PER_ROUTE = "limiter.budgets.per-route.windows.minute.limit=3";

	public static final String PER_ROUTE_DURATION = "limiter.budgets.per-route.windows.minute.duration=1m";

	public static final String PER_ROUTE_SCOPE = "limiter.budgets.per-route.scope=route";

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	RateLimitStore recordingStore() {
		return new RecordingStore();
	}

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
			.addFilterBefore(new GoodTokenFilter(), AnonymousAuthenticationFilter.class)
			.build();
	}

	static final class GoodTokenFilter extends OncePerRequestFilter {

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			String header = request.getHeader("Authorization");
			if (header != null && header.startsWith("Bearer good-")) {
				SecurityContextHolder.getContext()
					.setAuthentication(new TokenCredentialAuthentication(header.substring("Bearer good-".length()),
							header.substring("Bearer ".length())));
			}
			chain.doFilter(request, response);
		}

	}

	@RestController
	static class PlainController {

		@GetMapping("/plain")
		String plain() {
			return "plain";
		}

		@RateLimited(budget = "tight")
		@GetMapping("/plain/method")
		String method() {
			return "method";
		}

		@RateLimitExempt(reason = "load balancer probe")
		@GetMapping("/plain/exempt")
		String exempt() {
			return "exempt";
		}

		/** A rule for /plain/yaml names 'loose': the rule wins over this annotation. */
		@RateLimited(budget = "tight")
		@GetMapping("/plain/yaml")
		String yaml() {
			return "yaml";
		}

	}

	@RestController
	@RateLimited(budget = "loose")
	static class ClassController {

		@GetMapping("/class")
		String inherited() {
			return "class";
		}

		@RateLimited(budget = "tight", expensive = true)
		@GetMapping("/class/method")
		String method() {
			return "method";
		}

		@RateLimitExempt(reason = "static help")
		@GetMapping("/class/exempt")
		String exempt() {
			return "exempt";
		}

	}

	@RestController
	@RateLimitExempt(reason = "internal")
	static class ExemptClassController {

		@GetMapping("/internal")
		String internal() {
			return "internal";
		}

		@RateLimited(budget = "tight")
		@GetMapping("/internal/limited")
		String limited() {
			return "limited";
		}

		/**
		 * A rule for /internal/yaml names 'tight': the rule wins over the class
		 * exemption.
		 */
		@GetMapping("/internal/yaml")
		String yaml() {
			return "yaml";
		}

	}

	@RestController
	@RateLimited(budget = "per-route")
	static class LinksController {

		@GetMapping("/links/{id}")
		String link(@PathVariable String id) {
			return "link " + id;
		}

		@GetMapping("/notes/{id}")
		String note(@PathVariable String id) {
			return "note " + id;
		}

	}

}
