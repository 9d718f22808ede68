package dev.limiter.autoconfigure.openapi;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.openapi.RateLimitOpenApiCustomizer;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
