package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Budget;
import dev.limiter.core.Window;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every invalid configuration stops start-up with a message that names the offending
 * property.
 */
class InvalidLimiterConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class));

	@Test
	void windowLimitWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.limit",
				"limiter.budgets.standard.windows.minute.limit=0");
	}

	@Test
	void windowLimitWhenNegativeShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.anonymous.windows.hour.limit",
				"limiter.budgets.anonymous.windows.hour.limit=-1");
	}

	@Test
	void windowDurationWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.hour.duration",
				"limiter.budgets.standard.windows.hour.duration=0s");
	}

	@Test
	void windowDurationWhenNotWholeSecondsShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.duration",
				"limiter.budgets.standard.windows.minute.duration=1500ms");
	}

	@Test
	void windowDurationWhenHalfASecondShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.anonymous.windows.minute.duration",
				"limiter.budgets.anonymous.windows.minute.duration=500ms");
	}

	@Test
	void windowDurationWhenNegativeShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.duration",
				"limiter.budgets.standard.windows.minute.duration=-1m");
	}

	@Test
	void windowDurationWhenMissingOnANewBudgetShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.premium.windows.day.duration",
				"limiter.budgets.premium.windows.day.limit=10");
	}

	@Test
	void windowCalendarWhenADurationIsSetTooShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.month.calendar",
				"limiter.budgets.standard.windows.month.limit=100000",
				"limiter.budgets.standard.windows.month.calendar=month",
				"limiter.budgets.standard.windows.month.duration=30d");
	}

	@Test
	void windowCalendarWhenUnknownShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.month.calendar",
				"limiter.budgets.standard.windows.month.limit=100000",
				"limiter.budgets.standard.windows.month.calendar=quarter");
	}

	@Test
	void windowZoneWhenInvalidShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.month.zone",
				"limiter.budgets.standard.windows.month.limit=100000",
				"limiter.budgets.standard.windows.month.calendar=month",
				"limiter.budgets.standard.windows.month.zone=Europe/Atlantis");
	}

	@Test
	void windowNotifyAtWhenOutsideZeroToAHundredPercentShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.month.notify-at",
				"limiter.budgets.standard.windows.month.limit=100000",
				"limiter.budgets.standard.windows.month.calendar=month",
				"limiter.budgets.standard.windows.month.notify-at=80%,120%");
		assertFailsNaming("limiter.budgets.standard.windows.month.notify-at",
				"limiter.budgets.standard.windows.month.limit=100000",
				"limiter.budgets.standard.windows.month.calendar=month",
				"limiter.budgets.standard.windows.month.notify-at=0%");
	}

	@Test
	void windowNotifyAtWhenTheWindowHasNoPeriodShouldFailNamingThePropertyAndTheKindsThatTakeIt() {
		for (String algorithm : List.of("sliding-window", "token-bucket")) {
			runner
				.withPropertyValues("limiter.budgets.standard.windows.minute.algorithm=" + algorithm,
						"limiter.budgets.standard.windows.minute.notify-at=80%")
				.run(context -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(InvalidLimiterConfigurationException.class)
						.hasMessageContaining("'limiter.budgets.standard.windows.minute.notify-at'")
						.hasMessageContaining("fixed-window or calendar window only, this one is " + algorithm);
				});
		}
	}

	@Test
	void windowNotifyAtOnAFixedWindowShouldStart() {
		runner.withPropertyValues("limiter.budgets.standard.windows.minute.notify-at=50%,100%")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void routeBudgetWhenUnknownShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.routes[1].budget", "limiter.routes[0].pattern=/a", "limiter.routes[1].pattern=/b",
				"limiter.routes[1].budget=gold");
	}

	@Test
	void exemptRouteWhenReasonIsMissingShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.routes[0].reason", "limiter.routes[0].pattern=/actuator/**",
				"limiter.routes[0].exempt=true");
	}

	@Test
	void routePatternWhenMissingShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.routes[0].pattern", "limiter.routes[0].budget=standard");
	}

	@Test
	void routePatternWhenUnparsableShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.routes[0].pattern", "limiter.routes[0].pattern=/a/{id");
	}

	@Test
	void concurrencyMaxWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.concurrency.max", "limiter.budgets.standard.concurrency.max=0");
	}

	@Test
	void concurrencyMaxWhenMissingOnANewBudgetShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.premium.concurrency.max", "limiter.budgets.premium.windows.minute.limit=10",
				"limiter.budgets.premium.windows.minute.duration=1m", "limiter.budgets.premium.concurrency.lease=10s");
	}

	@Test
	void concurrencyLeaseWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.concurrency.lease",
				"limiter.budgets.standard.concurrency.lease=0s");
	}

	@Test
	void defaultBudgetWhenUnknownShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.default-budget", "limiter.default-budget=gold");
	}

	@Test
	void anonymousBudgetWhenUnknownShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.anonymous-budget", "limiter.anonymous-budget=guest");
	}

	@Test
	void budgetNameWhenUnsafeShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.a b", "limiter.budgets[a b].windows.minute.limit=1",
				"limiter.budgets[a b].windows.minute.duration=1m");
	}

	@Test
	void windowNameWhenConcurrencyShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.concurrency",
				"limiter.budgets.standard.windows.concurrency.limit=1",
				"limiter.budgets.standard.windows.concurrency.duration=1m");
	}

	@Test
	void memoryMaxKeysWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.memory.max-keys", "limiter.memory.max-keys=0");
	}

	@Test
	void redisTimeoutWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.redis.timeout", "limiter.redis.timeout=0s");
	}

	@Test
	void unknownKeyWhenATypoOfWindowsShouldFailSuggestingTheNearOne() {
		runner.withPropertyValues("limiter.budgets.standard.window.minute.limit=1").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'limiter.budgets.standard.window.minute.limit'")
				.hasMessageContaining("did you mean 'limiter.budgets.standard.windows'?");
		});
	}

	@Test
	void startupWhenAnUnknownKeyIsAtTheTopShouldFailNamingIt() {
		runner.withPropertyValues("limiter.heders=both").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("'limiter.heders'")
				.hasMessageContaining("did you mean 'limiter.headers'?");
		});
	}

	@Test
	void startupWhenAnUnknownKeyIsUnderARouteShouldFailNamingIt() {
		runner.withPropertyValues("limiter.routes[0].pattern=/x", "limiter.routes[0].expensiv=true").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("'limiter.routes[0].expensiv'");
		});
	}

	@Test
	void startupWhenTheTestInfrastructureSetsSystemPropertiesShouldNotCheckThem() {
		runner.withSystemProperties("limiter.test.redis-server=embedded")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void startupWhenASystemPropertyIsATypoShouldFailNamingItAndTheNearProperty() {
		runner.withSystemProperties("limiter.heders=both").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(UnknownLimiterPropertyException.class)
				.hasMessageContaining("system property 'limiter.heders'")
				.hasMessageEndingWith("did you mean 'limiter.headers'?");
		});
	}

	@Test
	void startupWhenAnEnvironmentVariableIsATypoShouldFailNamingItAndTheNearProperty() {
		withVariables(Map.of("LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT", "1")).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(UnknownLimiterPropertyException.class)
				.hasMessageContaining("environment variable 'LIMITER_BUDGETS_STANDARD_WINDOW_MINUTE_LIMIT'")
				.hasMessageEndingWith("did you mean 'limiter.budgets.standard.windows'?");
		});
	}

	@Test
	void startupWhenEnvironmentVariablesBindThroughRelaxedBindingShouldSucceedWithTheirValues() {
		Map<String, Object> variables = new LinkedHashMap<>();
		variables.put("LIMITER_BUDGETS_STANDARD_WINDOWS_MINUTE_LIMIT", "5");
		variables.put("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_LIMIT", "7");
		variables.put("LIMITER_BUDGETS_GOLD_WINDOWS_MINUTE_DURATION", "1m");
		variables.put("LIMITER_BUDGETS_GOLD_COUNT_REFUSED", "true");
		variables.put("LIMITER_AUTH_GUARD_THRESHOLD", "5");
		variables.put("LIMITER_MAX_REQUEST_BODY", "1MB");
		variables.put("LIMITER_ROUTES_0_PATTERN", "/x");
		variables.put("LIMITER_ROUTES_0_METHODS_0", "GET");
		variables.put("LIMITER_ROUTES_0_BUDGET", "gold");
		variables.put("LIMITER_TEST_REDIS_SERVER", "embedded");
		withVariables(variables).run(context -> {
			assertThat(context).hasNotFailed();
			LimiterSettings settings = context.getBean(LimiterSettings.class);
			assertThat(settings.budgets().get("standard").windows().get(0).limit()).isEqualTo(5);
			assertThat(settings.budgets().get("gold").windows().get(0).limit()).isEqualTo(7);
		});
	}

	@Test
	void startupWhenTheEnvironmentCheckIsOffShouldIgnoreAnUnknownVariable() {
		withVariables(Map.of("LIMITER_HEDERS", "both", "LIMITER_CONFIG_CHECK_ENVIRONMENT", "false"))
			.run(context -> assertThat(context).hasNotFailed());
	}

	/**
	 * The runner with these environment variables in place of the process's, read as
	 * Spring Boot reads them.
	 */
	private WebApplicationContextRunner withVariables(Map<String, Object> variables) {
		return runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)));
	}

	@Test
	void startupWhenEveryKnownKindOfKeyIsSetShouldSucceed() {
		runner
			.withPropertyValues("limiter.budgets.gold.windows.minute.limit=5",
					"limiter.budgets.gold.windows.minute.duration=1m", "limiter.budgets.gold.concurrency.max=2",
					"limiter.budgets.gold.count-refused=true", "limiter.routes[0].pattern=/x",
					"limiter.routes[0].methods[0]=GET", "limiter.redis.key-prefix=app",
					"limiter.auth-guard.threshold=5", "limiter.headers=both", "limiter.max-request-body=1MB")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void failureAnalysisWhenConfigurationIsInvalidShouldNameThePropertyAndPointAtTheMetadata() {
		InvalidLimiterConfigurationException ex = new InvalidLimiterConfigurationException(
				"limiter.budgets.standard.windows.minute.limit", "must be at least 1, was 0");
		FailureAnalysis analysis = new InvalidLimiterConfigurationFailureAnalyzer()
			.analyze(new RuntimeException("wrapper", ex));
		assertThat(analysis.getDescription()).contains("'limiter.budgets.standard.windows.minute.limit'")
			.contains("must be at least 1, was 0");
		assertThat(analysis.getAction()).contains("limiter.budgets.standard.windows.minute.limit")
			.contains("configuration metadata of limiter-spring")
			.doesNotContain("docs/");
	}

	@Test
	void failureAnalysisWhenAKeyIsATypoShouldEndInOneQuestionMarkAndPointAtTheMetadata() {
		runner.withPropertyValues("limiter.budgets.standard.window.minute.limit=1").run(context -> {
			FailureAnalysis analysis = new InvalidLimiterConfigurationFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("'limiter.budgets.standard.window.minute.limit' is not a "
					+ "limiter property: 'window' is unknown under 'limiter.budgets.standard'; did you mean "
					+ "'limiter.budgets.standard.windows'?");
			assertThat(analysis.getAction())
				.startsWith("Fix or remove 'limiter.budgets.standard.window.minute.limit' in your configuration. ")
				.contains("configuration metadata of limiter-spring")
				.doesNotContain("docs/");
		});
	}

	@Test
	void failureAnalysisWhenAVariableIsATypoShouldSayHowToTurnTheCheckOff() {
		withVariables(Map.of("LIMITER_HEDERS", "both")).run(context -> {
			FailureAnalysis analysis = new InvalidLimiterConfigurationFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("Environment variable 'LIMITER_HEDERS' (read as "
					+ "'limiter.heders') is not a limiter property: 'heders' is unknown under 'limiter'; did you mean "
					+ "'limiter.headers'?");
			assertThat(analysis.getAction()).contains("LIMITER_HEDERS", "limiter.config-check.environment=false");
		});
	}

	@Test
	void windowAlgorithmWhenUnknownShouldFailNamingThePropertyAndTheValidValues() {
		runner.withPropertyValues("limiter.budgets.standard.windows.minute.algorithm=leaky-bucket").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasMessageContaining("'limiter.budgets.standard.windows.minute.algorithm'")
				.hasMessageContaining("fixed-window, sliding-window, token-bucket")
				.hasMessageContaining("leaky-bucket");
		});
	}

	@Test
	void windowBurstWhenTheWindowIsNotATokenBucketShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.burst",
				"limiter.budgets.standard.windows.minute.burst=10");
		assertFailsNaming("limiter.budgets.standard.windows.minute.burst",
				"limiter.budgets.standard.windows.minute.algorithm=sliding-window",
				"limiter.budgets.standard.windows.minute.burst=10");
	}

	@Test
	void windowBurstWhenBelowOneShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.burst",
				"limiter.budgets.standard.windows.minute.algorithm=token-bucket",
				"limiter.budgets.standard.windows.minute.burst=0");
	}

	@Test
	void windowMaxReportWhenBelowOneShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.completion.windows.tokens.max-report",
				withTokens("limiter.budgets.completion.windows.tokens.max-report=0"));
	}

	@Test
	void windowMaxReportWhenTheWindowCountsRequestsShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.max-report",
				"limiter.budgets.standard.windows.minute.max-report=10");
	}

	@Test
	void windowMaxReportWhenValidShouldReachTheWindow() {
		runner.withPropertyValues(withTokens("limiter.budgets.completion.windows.tokens.max-report=5000"))
			.run(context -> {
				assertThat(context).hasNotFailed();
				Budget completion = context.getBean(LimiterSettings.class).budgets().get("completion");
				assertThat(completion.windows().get(1).maxReport()).hasValue(5_000);
			});
	}

	@Test
	void tokenBucketWhenItRefillsMoreOftenThanOnceAMillisecondShouldFailNamingTheLimit() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.limit",
				"limiter.budgets.standard.windows.minute.algorithm=token-bucket",
				"limiter.budgets.standard.windows.minute.limit=60001",
				"limiter.budgets.standard.windows.minute.duration=1m");
	}

	@Test
	void windowResolutionWhenTheWindowIsNotSlidingOrLongerThanItShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.budgets.standard.windows.minute.resolution",
				"limiter.budgets.standard.windows.minute.resolution=1s");
		assertFailsNaming("limiter.budgets.standard.windows.minute.resolution",
				"limiter.budgets.standard.windows.minute.algorithm=sliding-window",
				"limiter.budgets.standard.windows.minute.resolution=2m");
	}

	@Test
	void windowAlgorithmWhenValidShouldStartWithEveryAlgorithm() {
		runner
			.withPropertyValues("limiter.budgets.standard.windows.minute.algorithm=sliding-window",
					"limiter.budgets.standard.windows.hour.algorithm=token-bucket",
					"limiter.budgets.standard.windows.hour.burst=100")
			.run(context -> {
				assertThat(context).hasNotFailed();
				Budget standard = context.getBean(LimiterSettings.class).budgets().get("standard");
				assertThat(standard.windows()).containsExactly(Window.sliding("minute", 600, Duration.ofMinutes(1)),
						Window.tokenBucket("hour", 36_000, Duration.ofHours(1), 100));
			});
	}

	@Test
	void routeEstimateWhenAboveTheLimitOfAWindowInItsUnitShouldFailNamingThePropertyAndTheLimit() {
		runner
			.withPropertyValues(withTokens("limiter.routes[0].pattern=/a", "limiter.routes[1].pattern=/complete",
					"limiter.routes[1].budget=completion", "limiter.routes[1].estimates.tokens=2500"))
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidLimiterConfigurationException.class)
					.hasMessage("Invalid limiter configuration: 'limiter.routes[1].estimates.tokens' exceeds the "
							+ "limit 2000 of window 'tokens' of budget 'completion': a request could never be "
							+ "admitted");
			});
	}

	@Test
	void routeEstimateWhenAboveATokenBucketsBurstShouldFailNamingThePropertyAndTheBurst() {
		runner
			.withPropertyValues(withTokens("limiter.budgets.completion.windows.tokens.algorithm=token-bucket",
					"limiter.budgets.completion.windows.tokens.burst=300", "limiter.routes[0].pattern=/complete",
					"limiter.routes[0].budget=completion", "limiter.routes[0].estimates.tokens=301"))
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidLimiterConfigurationException.class)
					.hasMessageContaining("'limiter.routes[0].estimates.tokens'")
					.hasMessageContaining("exceeds the burst 300 of window 'tokens'");
			});
	}

	@Test
	void routeEstimateWhenItsUnitIsCountedByNoWindowOfTheBudgetShouldFailNamingThePropertyAndTheUnits() {
		runner
			.withPropertyValues(withTokens("limiter.routes[0].pattern=/complete", "limiter.routes[0].budget=completion",
					"limiter.routes[0].estimates.token=100"))
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidLimiterConfigurationException.class)
					.hasMessageContaining("'limiter.routes[0].estimates.token'")
					.hasMessageContaining("names a unit that no window of budget 'completion' counts")
					.hasMessageContaining("[requests, tokens]");
			});
	}

	@Test
	void routeEstimateWhenTheRouteNamesNoBudgetShouldBeCheckedAgainstTheDefaultBudget() {
		assertFailsNaming("limiter.routes[0].estimates.tokens", "limiter.routes[0].pattern=/complete",
				"limiter.routes[0].estimates.tokens=100");
		runner
			.withPropertyValues(withTokens("limiter.default-budget=completion", "limiter.routes[0].pattern=/complete",
					"limiter.routes[0].estimates.tokens=100"))
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void routeEstimateWhenOfRequestsShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.routes[0].estimates.requests", "limiter.routes[0].pattern=/complete",
				"limiter.routes[0].estimates.requests=2");
	}

	@Test
	void routeEstimateWhenItFitsEveryWindowOfItsUnitShouldStart() {
		runner
			.withPropertyValues(withTokens("limiter.routes[0].pattern=/complete", "limiter.routes[0].budget=completion",
					"limiter.routes[0].estimates.tokens=2000"))
			.run(context -> assertThat(context).hasNotFailed());
	}

	/** {@code properties} and a budget {@code completion}: 60 requests, 2,000 tokens. */
	private static String[] withTokens(String... properties) {
		List<String> all = new ArrayList<>(List.of("limiter.budgets.completion.windows.minute.limit=60",
				"limiter.budgets.completion.windows.minute.duration=1m",
				"limiter.budgets.completion.windows.tokens.limit=2000",
				"limiter.budgets.completion.windows.tokens.duration=1m",
				"limiter.budgets.completion.windows.tokens.unit=tokens"));
		all.addAll(List.of(properties));
		return all.toArray(String[]::new);
	}

	@Test
	void quotaEndpointPathWhenNotAbsoluteShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.quota-endpoint.path", "limiter.quota-endpoint.path=rate-limit");
	}

	@Test
	void quotaEndpointLimitWhenZeroShouldFailNamingTheProperty() {
		assertFailsNaming("limiter.quota-endpoint.limit", "limiter.quota-endpoint.path=/rate-limit",
				"limiter.quota-endpoint.limit=0");
	}

	private void assertFailsNaming(String property, String... properties) {
		runner.withPropertyValues(properties).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLimiterConfigurationException.class)
				.hasMessageContaining("'" + property + "'");
		});
	}

}
