package dev.limiter.test.web;

import java.time.Clock;
import java.time.Instant;

import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Controllers covering every precedence combination. Budgets used (set by
 * {@link RoutesHttpTest}): {@code tight}, {@code loose}, {@code per-route}.
 * {@code Authorization: Bearer good-<name>} authenticates as {@code <name>}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(GoodTokenSecurity.class)
public class RoutesTestApplication {

	public static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	/** The budget {@code per-route} counts per matched route pattern. */
	public static final String PER_ROUTE_SCOPE = "limiter.budgets.per-route.scope=route";

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	RateLimitStore recordingStore() {
		return new RecordingStore();
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
