package dev.limiter.redis;

import java.time.Instant;

import dev.limiter.test.web.MutableClock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A plain Boot application on the starter and
 * {@code spring.data.redis.client-type=jedis}, run in its own JVM by
 * {@link JedisWithoutLettuceTests} with Lettuce (and Netty) left out of the class path,
 * as Spring Boot documents for Jedis users.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class JedisOnlyApplication {

	/** Every request of a run falls in one minute, whatever the wall clock does. */
	static final Instant NOW = Instant.parse("2030-01-01T00:00:05Z");

	public static void main(String[] args) {
		SpringApplication.run(JedisOnlyApplication.class, args);
	}

	@Bean(name = "limiterClock")
	MutableClock limiterClock() {
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

		private final MutableClock clock;

		PingController(MutableClock clock) {
			this.clock = clock;
		}

		@GetMapping("/ping")
		String ping() {
			return "pong";
		}

		/** Moves the limiter's clock, so that a test starts a new minute. */
		@PostMapping("/test/advance")
		String advance(@RequestParam long seconds) {
			clock.set(clock.instant().plusSeconds(seconds));
			return clock.instant().toString();
		}

	}

}
