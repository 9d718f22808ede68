package dev.limiter.resilience;

import java.time.Clock;
import java.time.Instant;

import dev.limiter.test.web.MutableClock;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A servlet application on the starter with the Redis store, for real faults of a real
 * redis-server.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class StoreFailureTestApplication {

	/**
	 * 2030-01-01T00:00:05Z: every request of a test falls in one minute, whatever the
	 * wall clock does.
	 */
	public static final Instant NOW = Instant.parse("2030-01-01T00:00:05Z");

	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(NOW);
	}

	@Bean
	SecurityFilterChain permitAll(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
			.build();
	}

	@RestController
	static class PingController {

		@GetMapping("/ping")
		String ping() {
			return "pong";
		}

	}

}
