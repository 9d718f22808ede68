package dev.limiter.autoconfigure.refresh;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.RateLimited;
import dev.limiter.test.web.MutableClock;
import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A configuration change announced by Spring Cloud's {@code EnvironmentChangeEvent}: the
 * new budgets decide the next request at once, counters carry over, an invalid change is
 * refused with start-up's message and changes nothing.
 */
@ExtendWith(OutputCaptureExtension.class)
class LimiterSettingsRefreshTests {

	private static final String LIMIT = "limiter.budgets.standard.windows.minute.limit";

	private static final String REFRESHED = "refreshed";

	private static final Instant START = Instant.parse("2030-01-01T00:00:18Z");

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class,
				LimiterRefreshAutoConfiguration.class))
		.withUserConfiguration(ClockConfiguration.class)
		.withPropertyValues("limiter.budgets.standard.windows.hour.limit=1000");

	@Test
	void refreshWhenLimitIsRaisedShouldAdmitTheNextRequestAtOnceWithTheCountCarriedOver() {
		runner.run(context -> {
			change(context, LIMIT, "5");
			for (int i = 0; i < 5; i++) {
				assertThat(request(context).getStatus()).isEqualTo(200);
			}
			assertThat(request(context).getStatus()).isEqualTo(429);
			change(context, LIMIT, "50");
			MockHttpServletResponse seventh = request(context);
			assertThat(seventh.getStatus()).isEqualTo(200);
			assertThat(seventh.getHeader("X-RateLimit-Limit")).isEqualTo("50");
			// five admitted before, the refusal not counted, this one: 44 left
			assertThat(seventh.getHeader("X-RateLimit-Remaining")).isEqualTo("44");
		});
	}

	@Test
	void refreshWhenLimitIsLoweredShouldRefuseTheNextRequestAtOnce() {
		runner.run(context -> {
			change(context, LIMIT, "50");
			for (int i = 0; i < 5; i++) {
				assertThat(request(context).getStatus()).isEqualTo(200);
			}
			change(context, LIMIT, "3");
			MockHttpServletResponse refused = request(context);
			assertThat(refused.getStatus()).isEqualTo(429);
			assertThat(refused.getHeader("X-RateLimit-Limit")).isEqualTo("3");
		});
	}

	@Test
	void refreshWhenValueIsInvalidShouldKeepTheSettingsInForceAndWarnOnceWithTheStartupMessage(CapturedOutput output) {
		String startupMessage = "Invalid limiter configuration: '" + LIMIT + "' must be at least 1, was 0";
		runner.withPropertyValues(LIMIT + "=0")
			.run(context -> assertThat(context).getFailure().rootCause().hasMessage(startupMessage));
		runner.run(context -> {
			change(context, LIMIT, "5");
			int before = count(output.getAll(), startupMessage);
			change(context, LIMIT, "0");
			assertThat(count(output.getAll(), startupMessage)).isEqualTo(before + 1);
			assertThat(output.getAll()).contains("WARN").contains("Limiter configuration not refreshed");
			MockHttpServletResponse admitted = request(context);
			assertThat(admitted.getStatus()).isEqualTo(200);
			assertThat(admitted.getHeader("X-RateLimit-Limit")).isEqualTo("5");
			assertThat(context.getBean(LimiterSettingsRefresh.class)
				.settings()
				.budgets()
				.get("standard")
				.windows()
				.get(0)
				.limit()).isEqualTo(5);
		});
	}

	@Test
	void refreshWhileARequestIsInFlightShouldFinishItOnTheOldSettings() {
		runner.run(context -> {
			change(context, LIMIT, "5");
			RateLimitFilter filter = context.getBean(RateLimitFilter.class);
			MockHttpServletResponse inFlight = new MockHttpServletResponse();
			MockHttpServletResponse[] during = new MockHttpServletResponse[1];
			FilterChain refreshingHandler = (request, response) -> {
				change(context, LIMIT, "50");
				during[0] = request(context);
				response.getWriter().write("ok");
			};
			filter.doFilter(authenticated(), inFlight, refreshingHandler);
			assertThat(inFlight.getHeader("X-RateLimit-Limit")).isEqualTo("5");
			assertThat(during[0].getHeader("X-RateLimit-Limit")).isEqualTo("50");
		});
	}

	@Test
	void refreshWhenTheChangeIsNotTheLimitersShouldChangeNothing() {
		runner.run(context -> {
			change(context, LIMIT, "5");
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("other", Map.of(LIMIT, "50")));
			context.publishEvent(new EnvironmentChangeEvent(context, Set.of("spring.application.name")));
			assertThat(request(context).getHeader("X-RateLimit-Limit")).isEqualTo("5");
		});
	}

	@Test
	void refreshWhenRoutesChangeShouldRecomputeTheInventoryAndRefuseAnAnnotationNamingAGoneBudget(
			CapturedOutput output) {
		runner
			.withConfiguration(AutoConfigurations.of(DispatcherServletAutoConfiguration.class,
					WebMvcAutoConfiguration.class, LimiterRoutesAutoConfiguration.class))
			.withUserConfiguration(Handlers.class)
			.withInitializer(context -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource(REFRESHED,
						new HashMap<>(Map.of("limiter.budgets.paid.windows.minute.limit", "9",
								"limiter.budgets.paid.windows.minute.duration", "1m")))))
			.run(context -> {
				RouteInventoryCheck inventory = context.getBean(RouteInventoryCheck.class);
				assertThat(entry(inventory.inventory(), "/plain").exempt()).isFalse();
				change(context, "limiter.routes[0].pattern", "/plain");
				change(context, "limiter.routes[0].exempt", "true");
				change(context, "limiter.routes[0].reason", "health probe");
				assertThat(entry(inventory.inventory(), "/plain").exempt()).isTrue();
				assertThat(request(context).getHeader("X-RateLimit-Limit")).isNull();
				// the handler's @RateLimited(budget = "paid") needs that budget
				source(context).getSource().remove("limiter.budgets.paid.windows.minute.limit");
				source(context).getSource().remove("limiter.budgets.paid.windows.minute.duration");
				assertThat(context.getBean(LimiterSettingsRefresh.class).refresh()).isFalse();
				assertThat(output.getAll()).contains("Limiter configuration not refreshed")
					.contains("@RateLimited(budget = \"paid\")");
				assertThat(entry(inventory.inventory(), "/plain").exempt()).isTrue();
				assertThat(entry(inventory.inventory(), "/paid").budget()).isEqualTo("paid");
			});
	}

	@Test
	void refreshWhenSpringCloudIsAbsentShouldLoadNoneOfItsClasses() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.cloud"))
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LimiterSettingsRefresh.class));
	}

	private static RouteInventory.Entry entry(RouteInventory inventory, String pattern) {
		return inventory.entries().stream().filter(e -> e.pattern().equals(pattern)).findFirst().orElseThrow();
	}

	private static void change(AssertableWebApplicationContext context, String key, String value) {
		source(context).getSource().put(key, value);
		context.publishEvent(new EnvironmentChangeEvent(context, Set.of(key)));
	}

	private static MapPropertySource source(AssertableWebApplicationContext context) {
		MapPropertySource refreshed = (MapPropertySource) context.getEnvironment().getPropertySources().get(REFRESHED);
		if (refreshed == null) {
			refreshed = new MapPropertySource(REFRESHED, new HashMap<>());
			context.getEnvironment().getPropertySources().addFirst(refreshed);
		}
		return refreshed;
	}

	private static MockHttpServletResponse request(AssertableWebApplicationContext context) {
		try {
			MockHttpServletResponse response = new MockHttpServletResponse();
			context.getBean(RateLimitFilter.class).doFilter(authenticated(), response, new MockFilterChain());
			return response;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static MockHttpServletRequest authenticated() {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/plain");
		request.setUserPrincipal(() -> "alice");
		return request;
	}

	private static int count(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

	@Configuration(proxyBeanMethods = false)
	static class ClockConfiguration {

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		MutableClock limiterClock() {
			return new MutableClock(START);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		@Bean
		Controller controller() {
			return new Controller();
		}

	}

	@RestController
	static class Controller {

		@GetMapping("/plain")
		String plain() {
			return "plain";
		}

		@GetMapping("/paid")
		@RateLimited(budget = "paid")
		String paid() {
			return "paid";
		}

	}

}
