package dev.limiter.routes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.autoconfigure.routes.RouteInventoryFailureAnalyzer;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class RouteInventoryTests {

	private static final AutoConfigurations MVC_AND_LIMITER = AutoConfigurations.of(
			DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, LimiterAutoConfiguration.class,
			LimiterRoutesAutoConfiguration.class, LimiterServletAutoConfiguration.class);

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(MVC_AND_LIMITER)
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("limiter.routes[0].pattern=/covered", "limiter.routes[1].pattern=/old/**",
				"limiter.routes[1].budget=anonymous", "limiter.routes[2].pattern=/annotated",
				"limiter.routes[2].methods=DELETE", "limiter.routes[3].pattern=/fn/**", "limiter.routes[3].exempt=true",
				"limiter.routes[3].reason=functional probes");

	@Test
	void inventoryWhenStrictShouldFailListingEveryImplicitHandlerAndEveryDeadRule() {
		runner.withPropertyValues("limiter.inventory.strict=true").run(context -> {
			assertThat(context).hasFailed();
			RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
			assertThat(failure.getProblems()).containsExactly(
					"handler GET /forgotten (RouteInventoryTests.InventoryController#forgotten) falls to the "
							+ "default budget 'standard' implicitly",
					"handler POST /orders/{id} (RouteInventoryTests.InventoryController#order) falls to the "
							+ "default budget 'standard' implicitly",
					"rule limiter.routes[1] (/old/**) matches no handler",
					"rule limiter.routes[2] (DELETE /annotated) matches no handler");
			assertThat(new RouteInventoryFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
				.contains("\n    - handler GET /forgotten")
				.contains("\n    - rule limiter.routes[1] (/old/**)");
		});
	}

	@Test
	void strictInventoryWhenEveryHandlerIsAccountedForShouldStart() {
		runner
			.withPropertyValues("limiter.inventory.strict=true", "limiter.routes[1].pattern=/forgotten",
					"limiter.routes[2].pattern=/orders/{id}", "limiter.routes[2].methods=POST")
			.run(context -> assertThat(context).hasNotFailed());
	}

	@Test
	void strictInventoryWhenAnExpensiveRouteHasNoConcurrencyBoundShouldFailNamingRouteAndBudget() {
		runner.withPropertyValues("limiter.inventory.strict=true", "limiter.routes[1].pattern=/forgotten",
				"limiter.routes[2].pattern=/orders/{id}", "limiter.routes[2].methods=POST",
				"limiter.budgets.reports.windows.minute.limit=10", "limiter.budgets.reports.windows.minute.duration=1m",
				"limiter.routes[0].budget=reports", "limiter.routes[0].expensive=true")
			.run(context -> {
				assertThat(context).hasFailed();
				RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
				assertThat(failure.getProblems()).containsExactly(
						"handler GET /covered (RouteInventoryTests.InventoryController#covered) is expensive, but its "
								+ "budget 'reports' has no concurrency bound: its requests take no lease (set "
								+ "limiter.budgets.reports.concurrency)");
			});
	}

	@Test
	void inventoryWhenAnExpensiveRouteHasNoConcurrencyBoundShouldMarkItAndWarn(CapturedOutput output) {
		runner
			.withPropertyValues("limiter.budgets.reports.windows.minute.limit=10",
					"limiter.budgets.reports.windows.minute.duration=1m", "limiter.routes[0].budget=reports",
					"limiter.routes[0].expensive=true")
			.run(context -> {
				assertThat(context).hasNotFailed();
				RouteInventory inventory = context.getBean(RouteInventoryCheck.class).inventory();
				assertThat(inventory.expensiveWithoutConcurrency()).extracting(RouteInventory.Entry::pattern)
					.containsExactly("/covered");
			});
		assertThat(output).containsPattern("GET +/covered +.* +reports, expensive WITHOUT A CONCURRENCY BOUND");
		assertThat(output).contains("WARN").contains("budget 'reports' has no concurrency bound");
	}

	@Test
	void inventoryWhenNotStrictShouldStartAndLogEveryHandlerOnce(CapturedOutput output) {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			RouteInventory inventory = context.getBean(RouteInventoryCheck.class).inventory();
			assertThat(inventory.entries()).extracting(RouteInventory.Entry::pattern)
				.containsExactly("/**", "/annotated", "/covered", "/fn/{id}", "/forgotten", "/orders/{id}",
						"/webjars/**");
			assertThat(inventory.entries()).extracting(entry -> entry.source().label())
				.containsExactly("built-in", "method annotation", "rule", "rule", "default", "default", "built-in");
			assertThat(inventory.deadRules()).containsExactly("limiter.routes[1] (/old/**)",
					"limiter.routes[2] (DELETE /annotated)");
		});
		assertThat(output).containsOnlyOnce("Limiter route inventory (7 handlers, 2 on the default budget "
				+ "implicitly, 2 rules matching no handler):");
		assertThat(output).containsPattern(
				"GET +/forgotten +RouteInventoryTests.InventoryController#forgotten +" + "standard +default");
		assertThat(output).containsPattern("GET +/fn/\\{id} +route .* +exempt \\(functional probes\\) +rule");
		assertThat(output).contains("rule matching no handler: limiter.routes[1] (/old/**)");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "route-sources/rules.properties, properties rule", "route-sources/rules.yml, yaml rule" })
	void inventoryWhenARuleIsReadFromAFileShouldNameTheKindOfFile(String file, String label) {
		new WebApplicationContextRunner().withConfiguration(MVC_AND_LIMITER)
			.withUserConfiguration(Handlers.class)
			.withInitializer(context -> load(context.getEnvironment(), file))
			.run(context -> assertThat(sourceOf(context, "/covered")).isEqualTo(label));
	}

	@Test
	void inventoryWhenARuleComesFromEnvironmentVariablesShouldSaySo() {
		new WebApplicationContextRunner().withConfiguration(MVC_AND_LIMITER)
			.withUserConfiguration(Handlers.class)
			.withInitializer(context -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
						Map.<String, Object>of("LIMITER_ROUTES_0_PATTERN", "/covered"))))
			.run(context -> assertThat(sourceOf(context, "/covered")).isEqualTo("environment rule"));
	}

	@Test
	void inventoryWhenTwoHandlerMethodsDifferOnlyInWhatTheyProduceShouldListTheirPatternOnce() {
		runner.withConfiguration(AutoConfigurations.of(ErrorMvcAutoConfiguration.class))
			.withPropertyValues("limiter.routes[4].pattern=/error")
			.run(context -> {
				List<RouteInventory.Entry> errors = context.getBean(RouteInventoryCheck.class)
					.inventory()
					.entries()
					.stream()
					.filter(entry -> entry.pattern().equals("/error"))
					.toList();
				assertThat(errors).singleElement()
					.extracting(RouteInventory.Entry::handler)
					.isEqualTo("BasicErrorController#error, #errorHtml");
			});
	}

	private static void load(ConfigurableEnvironment environment, String file) {
		try {
			ClassPathResource resource = new ClassPathResource(file);
			PropertySourceLoader loader = file.endsWith(".yml") ? new YamlPropertySourceLoader()
					: new PropertiesPropertySourceLoader();
			loader.load("Config resource '" + resource + "'", resource)
				.forEach(environment.getPropertySources()::addLast);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String sourceOf(ApplicationContext context, String pattern) {
		return context.getBean(RouteInventoryCheck.class)
			.inventory()
			.entries()
			.stream()
			.filter(entry -> entry.pattern().equals(pattern))
			.findFirst()
			.orElseThrow()
			.source()
			.label();
	}

	@Test
	void annotationWhenTheBudgetIsUnknownShouldFailStartUpNamingClassAndMethod() {
		runner.withUserConfiguration(UnknownBudget.class).run(context -> {
			assertThat(context).hasFailed();
			RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
			assertThat(failure.getProblems())
				.containsExactly("@RateLimited(budget = \"platinum\") on " + UnknownBudgetController.class.getName()
						+ "#premium names an unknown budget; known budgets " + "are [standard, anonymous]");
		});
	}

	@Test
	void exemptionWhenTheReasonIsBlankShouldFailStartUp() {
		runner.withUserConfiguration(BlankReason.class).run(context -> {
			assertThat(context).hasFailed();
			RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
			assertThat(failure.getProblems()).singleElement()
				.asString()
				.contains(BlankReasonController.class.getName())
				.contains("must say why");
		});
	}

	@Test
	void annotationWhenAnEstimateExceedsItsWindowsLimitShouldFailStartUpNamingHandlerAndLimit() {
		runner.withUserConfiguration(TooLargeEstimate.class).withPropertyValues(TOKENS_BUDGET).run(context -> {
			assertThat(context).hasFailed();
			RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
			assertThat(failure.getProblems()).containsExactly("@RateLimited(estimates) on "
					+ EstimateController.class.getName() + "#complete: estimate 2001 of 'tokens' exceeds the "
					+ "limit 2000 of window 'tokens' of budget 'completion': a request could never be admitted");
		});
	}

	@Test
	void annotationWhenAnEstimateNamesAUnitTheBudgetDoesNotCountShouldFailStartUpNamingHandlerAndUnits() {
		runner.withUserConfiguration(UncountedEstimate.class).withPropertyValues(TOKENS_BUDGET).run(context -> {
			assertThat(context).hasFailed();
			RouteInventoryException failure = (RouteInventoryException) rootCause(context.getStartupFailure());
			assertThat(failure.getProblems()).singleElement()
				.asString()
				.contains(UncountedEstimateController.class.getName() + "#report")
				.contains("estimate of 'rows' names a unit that no window of budget 'standard' counts")
				.contains("[requests]");
		});
	}

	@Test
	void annotationWhenItsEstimateFitsItsBudgetShouldStart() {
		runner.withUserConfiguration(FittingEstimate.class)
			.withPropertyValues(TOKENS_BUDGET)
			.run(context -> assertThat(context).hasNotFailed());
	}

	private static final String[] TOKENS_BUDGET = { "limiter.budgets.completion.windows.minute.limit=60",
			"limiter.budgets.completion.windows.minute.duration=1m",
			"limiter.budgets.completion.windows.tokens.limit=2000",
			"limiter.budgets.completion.windows.tokens.duration=1m",
			"limiter.budgets.completion.windows.tokens.unit=tokens" };

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		@Bean
		InventoryController inventoryController() {
			return new InventoryController();
		}

		@Bean
		RouterFunction<ServerResponse> functionalRoutes() {
			return RouterFunctions.route().GET("/fn/{id}", request -> ServerResponse.ok().body("fn")).build();
		}

	}

	@RestController
	static class InventoryController {

		@GetMapping("/covered")
		String covered() {
			return "covered";
		}

		@RateLimited
		@GetMapping("/annotated")
		String annotated() {
			return "annotated";
		}

		@GetMapping("/forgotten")
		String forgotten() {
			return "forgotten";
		}

		@PostMapping("/orders/{id}")
		String order(@PathVariable String id) {
			return id;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnknownBudget {

		@Bean
		UnknownBudgetController unknownBudgetController() {
			return new UnknownBudgetController();
		}

	}

	@RestController
	static class UnknownBudgetController {

		@RateLimited(budget = "platinum")
		@GetMapping("/premium")
		String premium() {
			return "premium";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TooLargeEstimate {

		@Bean
		EstimateController estimateController() {
			return new EstimateController();
		}

	}

	@RestController
	static class EstimateController {

		@RateLimited(budget = "completion", estimates = @RateLimited.Estimate(unit = "tokens", amount = 2001))
		@PostMapping("/complete")
		String complete() {
			return "done";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UncountedEstimate {

		@Bean
		UncountedEstimateController uncountedEstimateController() {
			return new UncountedEstimateController();
		}

	}

	@RestController
	static class UncountedEstimateController {

		// no budget named: the default, standard, counts requests only
		@RateLimited(estimates = @RateLimited.Estimate(unit = "rows", amount = 10))
		@GetMapping("/report")
		String report() {
			return "report";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FittingEstimate {

		@Bean
		FittingEstimateController fittingEstimateController() {
			return new FittingEstimateController();
		}

	}

	@RestController
	static class FittingEstimateController {

		@RateLimited(budget = "completion", estimates = @RateLimited.Estimate(unit = "tokens", amount = 2000))
		@PostMapping("/complete")
		String complete() {
			return "done";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BlankReason {

		@Bean
		BlankReasonController blankReasonController() {
			return new BlankReasonController();
		}

	}

	@RestController
	@RateLimitExempt(reason = " ")
	static class BlankReasonController {

		@GetMapping("/blank")
		String blank() {
			return "blank";
		}

	}

}
