package dev.limiter.boot4;

import java.time.Clock;
import java.time.Instant;

import dev.limiter.test.web.MutableClock;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Boot 4 servlet application on the Boot 4 starter, configured only through properties.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class Boot4TestApplication {

	/** Every request of a run falls in one minute, whatever the wall clock does. */
	@Bean(name = "limiterClock")
	Clock limiterClock() {
		return new MutableClock(Instant.parse("2030-01-01T00:00:05Z"));
	}

	@RestController
	static class PingController {

		@GetMapping("/ping")
		String ping() {
			return "pong";
		}

	}

}
