package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Window;
import dev.limiter.spring.BudgetRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterPropertiesBindingTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class));

	@Test
	void budgetsWhenNoneWrittenShouldBeTheBuiltInStandardAndAnonymous() {
		runner.run(context -> {
			BudgetRegistry budgets = context.getBean(BudgetRegistry.class);
			assertThat(budgets.all()).extracting(Budget::name).containsExactly("standard", "anonymous");
			Budget standard = budgets.defaultBudget();
			assertThat(standard.windows()).containsExactly(Window.of("minute", 600, Duration.ofMinutes(1)),
					Window.of("hour", 36_000, Duration.ofHours(1)));
			assertThat(standard.concurrency()).contains(new ConcurrencyBound(10, Duration.ofSeconds(30)));
			assertThat(standard.countRefused()).isFalse();
			Budget anonymous = budgets.anonymousBudget();
			assertThat(anonymous.name()).isEqualTo("anonymous");
			assertThat(anonymous.windows()).containsExactly(Window.of("minute", 60, Duration.ofMinutes(1)),
					Window.of("hour", 1_000, Duration.ofHours(1)));
			assertThat(anonymous.concurrency()).isEmpty();
		});
	}

	@Test
	void windowLimitWhenOverriddenAloneShouldKeepEveryOtherBuiltInValue() {
		runner.withPropertyValues("limiter.budgets.standard.windows.minute.limit=5").run(context -> {
			Budget standard = context.getBean(BudgetRegistry.class).get("standard");
			assertThat(standard.windows()).containsExactly(Window.of("minute", 5, Duration.ofMinutes(1)),
					Window.of("hour", 36_000, Duration.ofHours(1)));
			assertThat(standard.concurrency()).contains(new ConcurrencyBound(10, Duration.ofSeconds(30)));
			assertThat(context.getBean(BudgetRegistry.class).anonymousBudget().windows()).hasSize(2);
		});
	}

	@Test
	void windowLimitWhenSetByEnvironmentVariableShouldBind() {
		runner
			.withInitializer(context -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_LIMIT", "7"))))
			.run(context -> {
				Budget standard = context.getBean(BudgetRegistry.class).get("standard");
				assertThat(standard.windows()).containsExactly(Window.of("minute", 7, Duration.ofMinutes(1)),
						Window.of("hour", 36_000, Duration.ofHours(1)));
			});
	}

	@Test
	void budgetWhenAddedShouldSitBesideTheBuiltIns() {
		runner
			.withPropertyValues("limiter.budgets.premium.windows.day.limit=100000",
					"limiter.budgets.premium.windows.day.duration=1d", "limiter.budgets.premium.count-refused=true")
			.run(context -> {
				BudgetRegistry budgets = context.getBean(BudgetRegistry.class);
				assertThat(budgets.all()).extracting(Budget::name).containsExactly("standard", "anonymous", "premium");
				assertThat(budgets.get("premium").windows())
					.containsExactly(Window.of("day", 100_000, Duration.ofDays(1)));
				assertThat(budgets.get("premium").countRefused()).isTrue();
			});
	}

	@Test
	void storeGroupsWhenNotSetShouldHaveTheirDefaults() {
		runner.run(context -> {
			LimiterProperties properties = context.getBean(LimiterProperties.class);
			assertThat(properties.isEnabled()).isTrue();
			assertThat(properties.getStore()).isEqualTo(StoreType.MEMORY);
			assertThat(properties.getHeaders()).isEqualTo(HeaderStyle.X_RATELIMIT);
			assertThat(properties.getMemory().getMaxKeys()).isEqualTo(100_000);
			assertThat(properties.getRedis().getKeyPrefix()).isEqualTo("limiter");
			assertThat(properties.getRedis().getTimeout()).isEqualTo(Duration.ofSeconds(1));
			assertThat(properties.getFallback().getMaxKeys()).isEqualTo(100_000);
		});
	}

	@Test
	void headersWhenSetToBothShouldBind() {
		runner.withPropertyValues("limiter.headers=both", "limiter.store=memory")
			.run(context -> assertThat(context.getBean(LimiterProperties.class).getHeaders())
				.isEqualTo(HeaderStyle.BOTH));
	}

}
