package dev.limiter.servlet;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.metrics.LimiterMetricsAutoConfiguration;
import dev.limiter.metrics.MicrometerRateLimitObserver;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetDefinitionSelector;
import dev.limiter.test.web.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Budgets an application builds at run time: a test app gives each tenant the limit of
 * its plan row, from a map.
 */
@ExtendWith(OutputCaptureExtension.class)
class BudgetDefinitionsTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class,
				LimiterMetricsAutoConfiguration.class))
		.withUserConfiguration(TenantPlans.class)
		.withPropertyValues("limiter.budget-definitions.max-cached=100");

	@Test
	void definitionsWhenTwoTenantsHaveTheirOwnLimitsShouldRefuseEachExactlyAfterItsBound() {
		runner.run(context -> {
			for (int i = 0; i < 3; i++) {
				assertThat(request(context, "alice", "small").getStatus()).isEqualTo(200);
			}
			MockHttpServletResponse small = request(context, "alice", "small");
			assertThat(small.getStatus()).isEqualTo(429);
			assertThat(small.getHeader("X-RateLimit-Limit")).isEqualTo("3");
			for (int i = 0; i < 5; i++) {
				MockHttpServletResponse admitted = request(context, "alice", "large");
				assertThat(admitted.getStatus()).isEqualTo(200);
				assertThat(admitted.getHeader("X-RateLimit-Limit")).isEqualTo("5");
				// the same caller, the same budget name, another definition: its own
				// counter
				assertThat(admitted.getHeader("X-RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
			}
			assertThat(request(context, "alice", "large").getStatus()).isEqualTo(429);
			// without a tenant: the route's budget, untouched by the others
			assertThat(request(context, "alice", null).getHeader("X-RateLimit-Limit")).isEqualTo("600");
			// each definition built once, whatever the number of requests
			assertThat(context.getBean(TenantPlans.class).defined.get()).isEqualTo(2);
		});
	}

	@Test
	void definitionsWhenAThousandAreMetShouldStayWithinTheCacheBoundAndSayItInMeters() {
		runner.run(context -> {
			for (int i = 0; i < 1000; i++) {
				assertThat(request(context, "bob", "tenant-" + i).getStatus()).isEqualTo(200);
			}
			BudgetDefinitions definitions = context.getBean(BudgetDefinitions.class);
			assertThat(definitions.size()).isLessThanOrEqualTo(100);
			assertThat(definitions.evictions()).isGreaterThanOrEqualTo(900);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(MicrometerRateLimitObserver.BUDGET_DEFINITIONS).gauge().value())
				.isEqualTo(definitions.size());
			assertThat(registry.get(MicrometerRateLimitObserver.BUDGET_DEFINITIONS_MAX).gauge().value()).isEqualTo(100);
			assertThat(registry.get(MicrometerRateLimitObserver.BUDGET_DEFINITIONS_EVICTED).functionCounter().count())
				.isEqualTo(definitions.evictions());
			// meters are tagged by the definition's name, never its identity
			assertThat(registry.find(MicrometerRateLimitObserver.REQUESTS).counters()).hasSize(1);
		});
	}

	@Test
	void definitionsWhenInvalidShouldKeepTheRoutesBudgetAndWarnOnceNamingTheSelector(CapturedOutput output) {
		runner.run(context -> {
			for (int i = 0; i < 3; i++) {
				MockHttpServletResponse response = request(context, "carol", "broken");
				assertThat(response.getStatus()).isEqualTo(200);
				assertThat(response.getHeader("X-RateLimit-Limit")).isEqualTo("600");
			}
			String warning = "BudgetDefinitionSelector " + TenantPlans.Selector.class.getName()
					+ " defined an invalid budget for identity 'broken'";
			assertThat(output.getAll().split(java.util.regex.Pattern.quote(warning), -1)).hasSize(2);
			assertThat(output.getAll()).contains("limit must be at least 1, was 0");
			// a name of a configured budget would share its counters: refused too
			assertThat(request(context, "carol", "named-standard").getHeader("X-RateLimit-Limit")).isEqualTo("600");
			assertThat(output.getAll()).contains("is a configured budget's");
		});
	}

	private static MockHttpServletResponse request(AssertableWebApplicationContext context, String user,
			String tenant) {
		try {
			MockHttpServletRequest request = new MockHttpServletRequest("GET", "/documents");
			request.setUserPrincipal(() -> user);
			if (tenant != null) {
				request.addHeader("X-Tenant", tenant);
			}
			MockHttpServletResponse response = new MockHttpServletResponse();
			context.getBean(RateLimitFilter.class).doFilter(request, response, new MockFilterChain());
			return response;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The test app: plan rows by tenant, as a database would hold them. */
	@Configuration(proxyBeanMethods = false)
	static class TenantPlans {

		private static final Map<String, Long> PLANS = Map.of("small", 3L, "large", 5L, "broken", 0L);

		final AtomicInteger defined = new AtomicInteger();

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		MutableClock limiterClock() {
			return new MutableClock(Instant.parse("2030-01-01T00:00:18Z"));
		}

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		BudgetDefinitionSelector tenantPlans() {
			return new Selector(defined);
		}

		static final class Selector implements BudgetDefinitionSelector {

			private final AtomicInteger defined;

			Selector(AtomicInteger defined) {
				this.defined = defined;
			}

			@Override
			public Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget) {
				return Optional.ofNullable(request.getHeader("X-Tenant"));
			}

			@Override
			public BudgetDefinition define(String tenant) {
				defined.incrementAndGet();
				String name = tenant.equals("named-standard") ? "standard" : "plan";
				return BudgetDefinition.builder(name)
					.window("minute", PLANS.getOrDefault(tenant, 10L), Duration.ofMinutes(1))
					.build();
			}

		}

	}

}
