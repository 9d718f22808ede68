package dev.limiter.autoconfigure.openapi;

import java.util.List;
import java.util.Map;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.openapi.RateLimitOpenApiCustomizer;
import dev.limiter.routes.DocumentedPatterns;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

class LimiterOpenApiAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DispatcherServletAutoConfiguration.class,
				WebMvcAutoConfiguration.class, LimiterAutoConfiguration.class, LimiterRoutesAutoConfiguration.class,
				LimiterServletAutoConfiguration.class, LimiterOpenApiAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues("limiter.routes[0].pattern=/free", "limiter.routes[0].exempt=true",
				"limiter.routes[0].reason=probe", "limiter.budgets.standard.windows.minute.limit=12");

	@Test
	void customizerWhenSpringdocIsPresentShouldDocumentCountedOperationsOnly() {
		runner.run(context -> {
			OpenAPI openApi = new OpenAPI().paths(new Paths().addPathItem("/counted", get())
				.addPathItem("/free", get())
				.addPathItem("/unknown", get()));
			context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
			Operation counted = openApi.getPaths().get("/counted").getGet();
			assertThat(counted.getResponses()).containsKey("429");
			assertThat(counted.getResponses().get("200").getHeaders()).containsKey("X-RateLimit-Remaining");
			assertThat(counted.getExtensions()).containsKey(RateLimitOpenApiCustomizer.EXTENSION);
			assertThat(counted.getExtensions().get(RateLimitOpenApiCustomizer.EXTENSION).toString())
				.contains("budget=standard", "limit=12", "varies-per-caller=false");
			assertThat(openApi.getPaths().get("/free").getGet().getResponses()).doesNotContainKey("429");
			assertThat(openApi.getPaths().get("/free").getGet().getExtensions()).isNull();
			assertThat(openApi.getPaths().get("/unknown").getGet().getResponses()).doesNotContainKey("429");
			assertThat(openApi.getComponents().getSchemas()).containsKey(RateLimitOpenApiCustomizer.PROBLEM_SCHEMA);
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void customizerWhenAWindowCountsAUnitShouldNameThatUnit() {
		runner
			.withPropertyValues("limiter.budgets.completion.windows.minute.limit=60",
					"limiter.budgets.completion.windows.minute.duration=1m",
					"limiter.budgets.completion.windows.tokens.limit=2000",
					"limiter.budgets.completion.windows.tokens.duration=1m",
					"limiter.budgets.completion.windows.tokens.unit=tokens", "limiter.routes[1].pattern=/counted",
					"limiter.routes[1].budget=completion")
			.run(context -> {
				OpenAPI openApi = new OpenAPI().paths(new Paths().addPathItem("/counted", get()));
				context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
				Map<String, Object> limits = (Map<String, Object>) openApi.getPaths()
					.get("/counted")
					.getGet()
					.getExtensions()
					.get(RateLimitOpenApiCustomizer.EXTENSION);
				assertThat((List<Map<String, Object>>) limits.get("windows"))
					.extracting(window -> window.get("name") + ":" + window.get("unit"))
					.containsExactly("minute:requests", "tokens:tokens");
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void customizerWhenSpringSecurityRefusesAnonymousCallersShouldAdvertiseTheAnonymousBudgetOnlyWhereAllowed() {
		runner.withConfiguration(AutoConfigurations.of(SecurityAutoConfiguration.class))
			.withUserConfiguration(OpenOnlyForFree.class)
			.withPropertyValues("limiter.routes[0].exempt=false")
			.run(context -> {
				OpenAPI openApi = new OpenAPI()
					.paths(new Paths().addPathItem("/counted", get()).addPathItem("/free", get()));
				context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
				Map<String, Object> secured = (Map<String, Object>) openApi.getPaths()
					.get("/counted")
					.getGet()
					.getExtensions()
					.get(RateLimitOpenApiCustomizer.EXTENSION);
				assertThat(secured).containsEntry("anonymous-access", "denied").doesNotContainKey("anonymous");
				assertThat(secured).containsEntry("budget", "standard");
				Map<String, Object> open = (Map<String, Object>) openApi.getPaths()
					.get("/free")
					.getGet()
					.getExtensions()
					.get(RateLimitOpenApiCustomizer.EXTENSION);
				assertThat(open).containsEntry("anonymous-access", "allowed");
				assertThat((Map<String, Object>) open.get("anonymous")).containsEntry("budget", "anonymous");
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void customizerWhenNothingSaysWhoMayCallShouldMarkTheAnonymousBudgetUnknown() {
		runner.run(context -> {
			OpenAPI openApi = new OpenAPI().paths(new Paths().addPathItem("/counted", get()));
			context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
			Map<String, Object> limits = (Map<String, Object>) openApi.getPaths()
				.get("/counted")
				.getGet()
				.getExtensions()
				.get(RateLimitOpenApiCustomizer.EXTENSION);
			assertThat(limits).containsEntry("anonymous-access", "unknown").containsKey("anonymous");
		});
	}

	@Test
	void customizerWhenAPathIsDocumentedAsAnotherShouldWriteTheDocumentedPathWithoutItsSelector() {
		runner
			.withBean(DocumentedPatterns.class,
					() -> registered -> registered.equals("/ops/{segment}/{id}") ? "/ops/keys/{id}" : registered)
			.run(context -> {
				PathItem selectors = new PathItem()
					.get(new Operation().addParametersItem(new Parameter().in("path").name("segment"))
						.addParametersItem(new Parameter().in("path").name("id"))
						.addParametersItem(new Parameter().in("query").name("budget")));
				OpenAPI openApi = new OpenAPI()
					.paths(new Paths().addPathItem("/counted", get()).addPathItem("/ops/{segment}/{id}", selectors));
				context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
				assertThat(openApi.getPaths()).containsOnlyKeys("/counted", "/ops/keys/{id}");
				assertThat(openApi.getPaths().get("/ops/keys/{id}").getGet().getParameters())
					.extracting(Parameter::getName)
					.containsExactly("id", "budget");
			});
	}

	@Test
	void customizerWhenDisabledShouldNotBeRegistered() {
		runner.withPropertyValues("limiter.openapi.enabled=false")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RateLimitOpenApiCustomizer.class));
	}

	@Test
	void customizerWhenSpringdocIsAbsentShouldLoadNoneOfItsClasses() {
		runner.withClassLoader(new FilteredClassLoader("org.springdoc", "io.swagger"))
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RateLimitOpenApiCustomizer.class));
	}

	private static PathItem get() {
		return new PathItem().get(new Operation()
			.responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("ok"))));
	}

	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		@Bean
		Controller controller() {
			return new Controller();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OpenOnlyForFree {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			return http
				.authorizeHttpRequests(
						authorize -> authorize.requestMatchers("/free").permitAll().anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.build();
		}

	}

	@RestController
	static class Controller {

		@GetMapping("/counted")
		String counted() {
			return "counted";
		}

		@GetMapping("/free")
		String free() {
			return "free";
		}

	}

}
