package dev.limiter.servlet;

import java.io.IOException;
import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.RateLimitStore;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.test.web.GoodTokenSecurity;
import dev.limiter.test.web.MutableClock;
import dev.limiter.test.web.RecordingStore;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * A servlet application on the starter for filter-level tests.
 * {@code Authorization: Bearer good-<name>} authenticates as {@code <name>};
 * {@code good-trial-*} principals get the anonymous budget through a
 * {@link BudgetSelector}; any other header leaves the request unauthenticated.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(GoodTokenSecurity.class)
public class FilterTestApplication {

	public static final Instant NOW = Instant.parse("2030-01-01T00:00:18Z");

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	RateLimitStore recordingStore() {
		return new RecordingStore();
	}

	@Bean
	BudgetSelector trialSelector() {
		return (HttpServletRequest request, Principal principal,
				String routeBudget) -> principal.getName().startsWith("trial-") ? Optional.of("anonymous")
						: Optional.empty();
	}

	@RestController
	static class TestController {

		static final AtomicInteger calls = new AtomicInteger();
		static final AtomicReference<List<BoundVerdict>> boundsDuringWork = new AtomicReference<>();
		static final AtomicReference<DeferredResult<String>> pending = new AtomicReference<>();

		private final RateLimitStore store;

		private final BudgetRegistry budgets;

		private final Clock clock;

		TestController(RateLimitStore store, BudgetRegistry budgets,
				@org.springframework.beans.factory.annotation.Qualifier("limiterClock") Clock clock) {
			this.store = store;
			this.budgets = budgets;
			this.clock = clock;
		}

		@GetMapping("/hello")
		String hello() {
			calls.incrementAndGet();
			return "hello";
		}

		@GetMapping("/cacheable")
		ResponseEntity<String> cacheable() {
			calls.incrementAndGet();
			return ResponseEntity.ok()
				.cacheControl(CacheControl.maxAge(java.time.Duration.ofSeconds(60)).cachePublic())
				.body("shared");
		}

		@GetMapping("/shared-by-cdn")
		String sharedByCdn(HttpServletResponse response) throws IOException {
			response.setHeader("Cache-Control", "max-age=0, s-maxage=30");
			return "cdn";
		}

		@GetMapping("/private")
		ResponseEntity<String> privateCache() {
			return ResponseEntity.ok()
				.cacheControl(CacheControl.maxAge(java.time.Duration.ofSeconds(60)).cachePrivate())
				.body("private");
		}

		@PostMapping("/work")
		String work(HttpServletRequest request) {
			calls.incrementAndGet();
			String token = request.getHeader("Authorization").substring("Bearer ".length());
			boundsDuringWork.set(store
				.peek(budgets.get("standard"),
						DefaultKeyResolver.TOKEN_PREFIX + dev.limiter.core.Sha256.base64Url(token), clock.millis())
				.bounds());
			return "worked";
		}

		@PostMapping("/boom")
		String boom() {
			calls.incrementAndGet();
			throw new IllegalStateException("handler failed");
		}

		@PostMapping("/async")
		DeferredResult<String> async() {
			DeferredResult<String> result = new DeferredResult<>(30_000L);
			pending.set(result);
			return result;
		}

		@PostMapping("/async-callable")
		CompletableFuture<String> asyncCallable() {
			return CompletableFuture.supplyAsync(() -> "later");
		}

	}

}
