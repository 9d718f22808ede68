package dev.limiter.servlet;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.metrics.LimiterMetricsAutoConfiguration;
import dev.limiter.decision.BudgetDefinitionsContract;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetDefinitionSelector;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Budgets an application builds at run time, on a servlet application: a
 * {@link BudgetDefinitionSelector} over the contract's plan rows, requests through
 * {@link RateLimitFilter}.
 */
class BudgetDefinitionsTests extends BudgetDefinitionsContract {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class,
				LimiterMetricsAutoConfiguration.class))
		.withUserConfiguration(Plans.class, TenantPlans.class)
		.withPropertyValues("limiter.budget-definitions.max-cached=100");

	@Override
	protected void run(Check test, String... properties) {
		runner.withPropertyValues(properties).run(test::accept);
	}

	@Override
	protected Answer send(ApplicationContext context, String user, String tenant) {
		try {
			MockHttpServletRequest request = new MockHttpServletRequest("GET", "/documents");
			if (user != null) {
				request.setUserPrincipal(() -> user);
			}
			if (tenant != null) {
				request.addHeader("X-Tenant", tenant);
			}
			MockHttpServletResponse response = new MockHttpServletResponse();
			context.getBean(RateLimitFilter.class).doFilter(request, response, new MockFilterChain());
			Map<String, String> headers = new LinkedHashMap<>();
			for (String name : response.getHeaderNames()) {
				headers.put(name, response.getHeader(name));
			}
			return new Answer(response.getStatus(), headers, response.getContentAsString());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	protected String selectorDescription() {
		return "BudgetDefinitionSelector " + TenantPlans.Selector.class.getName();
	}

	/** The application's selector: the tenant of {@code X-Tenant}, its plan row. */
	@Configuration(proxyBeanMethods = false)
	static class TenantPlans {

		@Bean
		BudgetDefinitionSelector tenantPlans(Plans plans) {
			return new Selector(plans);
		}

		static final class Selector implements BudgetDefinitionSelector {

			private final Plans plans;

			Selector(Plans plans) {
				this.plans = plans;
			}

			@Override
			public Optional<String> select(HttpServletRequest request, Principal principal, String routeBudget) {
				return plans.select(request.getHeader("X-Tenant"));
			}

			@Override
			public BudgetDefinition define(String tenant) {
				return plans.define(tenant);
			}

		}

	}

}
