package dev.limiter.reactive.autoconfigure;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.metrics.LimiterMetricsAutoConfiguration;
import dev.limiter.decision.BudgetDefinitionsContract;
import dev.limiter.reactive.ReactiveBudgetDefinitionSelector;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

/**
 * Budgets an application builds at run time, on a WebFlux application: a
 * {@link ReactiveBudgetDefinitionSelector} over the contract's plan rows, requests
 * through {@link ReactiveRateLimitFilter}, under BlockHound.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveBudgetDefinitionsTests extends BudgetDefinitionsContract {

	private static final WebFilterChain OK = (exchange) -> {
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		return exchange.getResponse().setComplete();
	};

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterReactiveAutoConfiguration.class,
				LimiterMetricsAutoConfiguration.class))
		.withUserConfiguration(Plans.class, TenantPlans.class)
		.withPropertyValues("limiter.budget-definitions.max-cached=100");

	@Override
	protected void run(Check test, String... properties) {
		runner.withPropertyValues(properties).run(test::accept);
	}

	@Override
	protected Answer send(ApplicationContext context, String user, String tenant) {
		MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/documents");
		if (tenant != null) {
			request.header("X-Tenant", tenant);
		}
		MockServerWebExchange.Builder exchange = MockServerWebExchange.builder(request.build());
		if (user != null) {
			Principal principal = () -> user;
			exchange.principal(principal);
		}
		MockServerWebExchange sent = exchange.build();
		context.getBean(ReactiveRateLimitFilter.class).filter(sent, OK).block();
		Map<String, String> headers = new LinkedHashMap<>();
		sent.getResponse().getHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
		String body = sent.getResponse().getBodyAsString().defaultIfEmpty("").block();
		return new Answer(sent.getResponse().getStatusCode().value(), headers, body);
	}

	@Override
	protected String selectorDescription() {
		return "ReactiveBudgetDefinitionSelector " + TenantPlans.Selector.class.getName();
	}

	/** The application's selector: the tenant of {@code X-Tenant}, its plan row. */
	@Configuration(proxyBeanMethods = false)
	static class TenantPlans {

		@Bean
		ReactiveBudgetDefinitionSelector tenantPlans(Plans plans) {
			return new Selector(plans);
		}

		static final class Selector implements ReactiveBudgetDefinitionSelector {

			private final Plans plans;

			Selector(Plans plans) {
				this.plans = plans;
			}

			@Override
			public Optional<String> select(ServerWebExchange exchange, Principal principal, String routeBudget) {
				return plans.select(exchange.getRequest().getHeaders().getFirst("X-Tenant"));
			}

			@Override
			public BudgetDefinition define(String tenant) {
				return plans.define(tenant);
			}

		}

	}

}
