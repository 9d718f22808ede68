package dev.limiter.servlet;

import java.time.Instant;
import java.time.ZoneId;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.core.Window;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client sees of a calendar window: {@code X-RateLimit-Reset} and
 * {@code Retry-After} at the period's end, {@code RateLimit-Policy}'s {@code w} and
 * {@code X-RateLimit-Window} the current period's own length (29 days in a leap February,
 * a week an hour short across the spring change), and a refusal's body naming the window;
 * decisions of the in-memory store at exact milliseconds.
 */
class DefaultRateLimitResponseWriterCalendarTests {

	private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

	private final DefaultRateLimitResponseWriter writer = new DefaultRateLimitResponseWriter(true, true);

	private final RateLimitStore store = RateLimitStores.inMemory(100);

	private static long at(String instant) {
		return Instant.parse(instant).toEpochMilli();
	}

	@Test
	void monthWhenRefusedAtTheLastSecondOfALeapFebruaryShouldPointAtTheFirstOfMarch() throws Exception {
		Budget budget = Budget.builder("plan")
			.window(Window.calendar("month", 2, CalendarPeriod.of(CalendarPeriod.Unit.MONTH, BERLIN)))
			.build();
		long marchFirst = at("2024-02-29T23:00:00Z");
		store.take(budget, "k", 1, false, marchFirst - 86_400_000L);
		store.take(budget, "k", 1, false, marchFirst - 86_400_000L);
		Decision refused = store.take(budget, "k", 1, false, marchFirst - 1_000);
		MockHttpServletResponse response = new MockHttpServletResponse();

		writer.writeRefusal(new MockHttpServletRequest(), response, refused);

		assertThat(response.getHeader("Retry-After")).isEqualTo("1");
		assertThat(response.getHeader("X-RateLimit-Reset")).isEqualTo(Long.toString(marchFirst / 1_000));
		assertThat(response.getHeader("X-RateLimit-Window")).isEqualTo(Long.toString(29 * 86_400L));
		assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"month\";q=2;w=" + 29 * 86_400L);
		assertThat(response.getContentAsString()).contains("\"bound\":\"month\"");
	}

	@Test
	void weekWhenItHoldsTheSpringChangeShouldStateItsLengthAnHourShort() {
		Budget budget = Budget.builder("plan")
			.window(Window.calendar("week", 100, CalendarPeriod.of(CalendarPeriod.Unit.WEEK, BERLIN)))
			.build();
		// Monday 25 March 2024, 00:00 in Berlin, to Monday 1 April, 00:00 (summer time)
		long start = at("2024-03-24T23:00:00Z");
		long end = at("2024-03-31T22:00:00Z");

		MockHttpServletResponse response = new MockHttpServletResponse();
		writer.writeCounters(response, store.take(budget, "k", 1, false, start));

		assertThat(response.getHeader("X-RateLimit-Reset")).isEqualTo(Long.toString(end / 1_000));
		assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"week\";q=100;w=" + (7 * 86_400L - 3_600));
		assertThat(response.getHeader("RateLimit")).isEqualTo("\"week\";r=99;t=" + (end - start) / 1_000);
	}

}
