package dev.limiter.servlet;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application on the starter with the real clock, for the lease-renewal tests: every
 * caller is anonymous, and {@code limiter.routes} (set by each test) makes its handlers
 * expensive.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LeaseTestApplication {

	/** Handler invocations of {@code /long} that started. */
	static final AtomicInteger started = new AtomicInteger();

	/** Requests {@code /ignore} answered. */
	static final AtomicInteger ignored = new AtomicInteger();

	/** {@code /long} returns when this opens, or after its {@code ms}. */
	static final AtomicReference<CountDownLatch> release = new AtomicReference<>(new CountDownLatch(1));

	@Bean
	SecurityFilterChain openChain(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable()).authorizeHttpRequests(a -> a.anyRequest().permitAll()).build();
	}

	@RestController
	static class LongController {

		/** Runs for {@code ms} milliseconds (less if {@link #release} opens). */
		@GetMapping("/long")
		String run(@RequestParam long ms) throws InterruptedException {
			started.incrementAndGet();
			release.get().await(ms, TimeUnit.MILLISECONDS);
			return "done";
		}

		/** Ignores its body and answers at once. */
		@PostMapping("/ignore")
		String ignore() {
			ignored.incrementAndGet();
			return "ignored";
		}

	}

}
