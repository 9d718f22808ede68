package dev.limiter.decision;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.metrics.MicrometerRateLimitObserver;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.QuotaThresholdEvent;
import dev.limiter.test.web.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Budgets an application builds at run time, on either web stack: a test app gives each
 * tenant (the {@code X-Tenant} header) the limit of its plan row, from a map, through the
 * stack's own selector ({@code BudgetDefinitionSelector}, or
 * {@code ReactiveBudgetDefinitionSelector} on WebFlux), over {@link Plans}. Each stack's
 * subclass starts the application and sends a request through its filter.
 */
@ExtendWith(OutputCaptureExtension.class)
public abstract class BudgetDefinitionsContract {

	/**
	 * Runs {@code test} in an application with the limiter, its meters,
	 * {@code limiter.budget-definitions.max-cached=100}, {@code properties}, the beans of
	 * {@link Plans} and the stack's selector over {@link Plans#define}.
	 */
	protected abstract void run(Check test, String... properties);

	/**
	 * A {@code GET /documents} of {@code user} (authenticated) with {@code tenant} as
	 * {@code X-Tenant} ({@code null}: none), through the application's limiter filter.
	 */
	protected abstract Answer send(ApplicationContext context, String user, String tenant);

	/** How the log names the selector: its kind and its class. */
	protected abstract String selectorDescription();

	@Test
	void definitionsWhenTwoTenantsHaveTheirOwnLimitsShouldRefuseEachExactlyAfterItsBound() {
		run((context) -> {
			for (int i = 0; i < 3; i++) {
				assertThat(send(context, "alice", "small").status()).isEqualTo(200);
			}
			Answer small = send(context, "alice", "small");
			assertThat(small.status()).isEqualTo(429);
			assertThat(small.header("X-RateLimit-Limit")).isEqualTo("3");
			assertThat(small.body()).contains("\"budget\":\"plan\"");
			for (int i = 0; i < 5; i++) {
				Answer admitted = send(context, "alice", "large");
				assertThat(admitted.status()).isEqualTo(200);
				assertThat(admitted.header("X-RateLimit-Limit")).isEqualTo("5");
				// the same caller, the same budget name, another definition: its own
				// counter
				assertThat(admitted.header("X-RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
			}
			assertThat(send(context, "alice", "large").status()).isEqualTo(429);
			// without a tenant: the route's budget, untouched by the others
			assertThat(send(context, "alice", null).header("X-RateLimit-Limit")).isEqualTo("600");
			// each definition built once, whatever the number of requests
			assertThat(context.getBean(Plans.class).defined.get()).isEqualTo(2);
		});
	}

	@Test
	void definitionsWhenCallerIsAnonymousShouldNotBeAskedAndKeepTheAnonymousBudget() {
		run((context) -> {
			Answer anonymous = send(context, null, "small");
			assertThat(anonymous.status()).isEqualTo(200);
			assertThat(anonymous.header("X-RateLimit-Limit")).isNotEqualTo("3");
			assertThat(context.getBean(Plans.class).selected.get()).isZero();
		});
	}

	@Test
	void definitionsWhenAThousandAreMetShouldStayWithinTheCacheBoundAndSayItInMeters() {
		run((context) -> {
			for (int i = 0; i < 1000; i++) {
				assertThat(send(context, "bob", "tenant-" + i).status()).isEqualTo(200);
			}
			BudgetDefinitions<?> definitions = context.getBean(BudgetDefinitions.class);
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
		run((context) -> {
			for (int i = 0; i < 3; i++) {
				Answer answer = send(context, "carol", "broken");
				assertThat(answer.status()).isEqualTo(200);
				assertThat(answer.header("X-RateLimit-Limit")).isEqualTo("600");
			}
			String warning = selectorDescription() + " defined an invalid budget for identity 'broken'";
			// distinct lines: the capture of the class and the test's may both hold a
			// line
			assertThat(output.getAll().lines().filter((line) -> line.contains(warning)).distinct()).hasSize(1);
			assertThat(context.getBean(Plans.class).defined.get()).as("defined once, remembered invalid").isOne();
			assertThat(output.getAll()).contains("limit must be at least 1, was 0");
			// a name of a configured budget would share its counters: refused too
			assertThat(send(context, "carol", "named-standard").header("X-RateLimit-Limit")).isEqualTo("600");
			assertThat(output.getAll()).contains("is a configured budget's");
		});
	}

	@Test
	void definitionsWhenAWindowNotifiesAtHalfShouldPublishOneQuotaThresholdEventNamingTheDefinition() {
		run((context) -> {
			Plans plans = context.getBean(Plans.class);
			send(context, "dave", "alerting");
			assertThat(plans.thresholds).isEmpty();
			send(context, "dave", "alerting");
			send(context, "dave", "alerting");
			assertThat(plans.thresholds).singleElement().satisfies((event) -> {
				assertThat(event.getBudget()).isEqualTo("plan");
				assertThat(event.getWindow()).isEqualTo("minute");
				assertThat(event.getThresholdPercent()).isEqualTo(50);
				assertThat(event.getKeyHash()).isNotBlank();
			});
		});
	}

	@Test
	void definitionsWhenLimiterIsInShadowModeShouldLetTheRefusedRequestThroughMarked() {
		run((context) -> {
			for (int i = 0; i < 3; i++) {
				assertThat(send(context, "erin", "small").header("X-RateLimit-Shadow")).isNull();
			}
			Answer refused = send(context, "erin", "small");
			assertThat(refused.status()).isEqualTo(200);
			assertThat(refused.header("X-RateLimit-Shadow")).isEqualTo("refused");
			assertThat(refused.header("X-RateLimit-Limit")).isEqualTo("3");
		}, "limiter.mode=shadow");
	}

	/** A test given the started application. */
	@FunctionalInterface
	public interface Check {

		void accept(ApplicationContext context) throws Exception;

	}

	/** What the filter answered. */
	public record Answer(int status, Map<String, String> headers, String body) {

		String header(String name) {
			return headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
				.map(Map.Entry::getValue)
				.findFirst()
				.orElse(null);
		}

	}

	/**
	 * The test app's plan rows by tenant, as a database would hold them, its clock and
	 * meters, and the quota events it heard; each stack's selector asks it.
	 */
	public static class Plans {

		private static final Map<String, Long> LIMITS = Map.of("small", 3L, "large", 5L, "broken", 0L, "alerting", 4L);

		final AtomicInteger selected = new AtomicInteger();

		final AtomicInteger defined = new AtomicInteger();

		final List<QuotaThresholdEvent> thresholds = new CopyOnWriteArrayList<>();

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		MutableClock limiterClock() {
			return new MutableClock(Instant.parse("2030-01-01T00:00:18Z"));
		}

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@EventListener
		void heard(QuotaThresholdEvent event) {
			thresholds.add(event);
		}

		/** The identity of a tenant's definition: the tenant. */
		public Optional<String> select(String tenant) {
			selected.incrementAndGet();
			return Optional.ofNullable(tenant);
		}

		/** A tenant's plan: 10 a minute unless its row says otherwise. */
		public BudgetDefinition define(String tenant) {
			defined.incrementAndGet();
			String name = tenant.equals("named-standard") ? "standard" : "plan";
			BudgetDefinition.Builder plan = BudgetDefinition.builder(name)
				.window("minute", LIMITS.getOrDefault(tenant, 10L), Duration.ofMinutes(1));
			if (tenant.equals("alerting")) {
				plan.notifyAt(50);
			}
			return plan.build();
		}

	}

}
