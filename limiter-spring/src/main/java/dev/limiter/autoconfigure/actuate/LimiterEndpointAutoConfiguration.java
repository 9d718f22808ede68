package dev.limiter.autoconfigure.actuate;

import java.time.Clock;

import dev.limiter.actuate.LimiterOperations;
import dev.limiter.actuate.LimiterOperations.RefreshDescriptor;
import dev.limiter.actuate.NoStoreEndpoint;
import dev.limiter.actuate.NoStoreEndpointFilter;
import dev.limiter.actuate.RateLimitTotals;
import dev.limiter.actuate.RefusedCallers;
import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.refresh.LimiterSettingsRefresh;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.DocumentedPatterns;
import dev.limiter.servlet.CallerRefusalsInstrumentation;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CurrentRateLimitRules;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The {@code limiter} actuator endpoint and the per-budget totals it shows. Present only
 * when Spring Boot's actuator is on the classpath and the endpoint is available, that is,
 * exposed by the application ({@code management.endpoints.web.exposure.include=limiter});
 * never exposed by default.
 */
@AutoConfiguration(after = { LimiterAutoConfiguration.class, LimiterRoutesAutoConfiguration.class },
		before = LimiterServletAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnLimiterEnabled
@ConditionalOnBean(BudgetRegistry.class)
@ConditionalOnAvailableEndpoint(LimiterEndpoint.class)
public class LimiterEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public RateLimitTotals limiterTotals() {
		return new RateLimitTotals();
	}

	@Bean
	@ConditionalOnMissingBean
	public LimiterOperations limiterOperations(BudgetRegistry budgets, BudgetOptions options,
			ObjectProvider<CurrentRateLimitRules> rules, ObjectProvider<RateLimitStore> stores,
			ObjectProvider<CurrentRouteInventory> inventory, RateLimitTotals totals,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			ObjectProvider<LimiterSettingsRefresh> refreshes, ObjectProvider<AuthGuard> guards) {
		// the rules in force when the filter has them: a refresh shows here too
		return new LimiterOperations(() -> {
			CurrentRateLimitRules current = rules.getIfAvailable();
			return current != null ? current.get().budgets() : budgets;
		}, () -> {
			CurrentRateLimitRules current = rules.getIfAvailable();
			return current != null ? current.get().options() : options;
		}, stores, inventory, totals, clock, () -> {
			LimiterSettingsRefresh refresh = refreshes.getIfAvailable();
			return refresh == null ? null
					: refresh.lastAttempt().map(LimiterEndpointAutoConfiguration::describe).orElse(null);
		}, guards::getIfAvailable);
	}

	private static RefreshDescriptor describe(LimiterSettingsRefresh.Attempt attempt) {
		return new RefreshDescriptor(attempt.at().toString(), attempt.applied() ? "applied" : "refused",
				attempt.reason(), attempt.waitingForRestart());
	}

	/**
	 * The callers this instance refused most in the last minutes, in bounded memory; the
	 * filter tells it of each refusal.
	 */
	@Bean
	@ConditionalOnMissingBean
	public RefusedCallers limiterRefusedCallers(@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock) {
		return new RefusedCallers(clock);
	}

	@Bean
	@ConditionalOnMissingBean
	public LimiterEndpoint limiterEndpoint(LimiterOperations operations, ObjectProvider<RefusedCallers> refused) {
		return new LimiterEndpoint(operations, refused.getIfAvailable());
	}

	/**
	 * The route inventory and the OpenAPI document show the key operations under
	 * {@code /actuator/limiter/keys/{keyHash}}, the path they answer.
	 */
	@Bean
	@ConditionalOnMissingBean
	public DocumentedPatterns limiterEndpointDocumentedPatterns(ObjectProvider<PathMappedEndpoints> endpoints) {
		return LimiterEndpoint.documentedPatterns(() -> {
			PathMappedEndpoints mapped = endpoints.getIfAvailable();
			return mapped == null ? null : mapped.getPath(EndpointId.of("limiter"));
		});
	}

	/**
	 * Which responses are the endpoint's, marked {@code no-store} by each web stack's
	 * filter.
	 */
	@Bean
	@ConditionalOnMissingBean
	public NoStoreEndpoint limiterNoStoreEndpoint(ObjectProvider<PathMappedEndpoints> endpoints) {
		return new NoStoreEndpoint(() -> {
			PathMappedEndpoints mapped = endpoints.getIfAvailable();
			return mapped == null ? null : mapped.getPath(EndpointId.of("limiter"));
		});
	}

	/**
	 * What names the Servlet API, read only on a servlet application: a WebFlux one
	 * without it exposes the endpoint too.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	static class ServletEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "limiterEndpointNoStoreFilter")
		FilterRegistrationBean<NoStoreEndpointFilter> limiterEndpointNoStoreFilter(NoStoreEndpoint endpoint) {
			FilterRegistrationBean<NoStoreEndpointFilter> registration = new FilterRegistrationBean<>(
					new NoStoreEndpointFilter(endpoint));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			return registration;
		}

		/** The servlet filter tells the most-refused callers of its refusals. */
		@Bean
		@ConditionalOnMissingBean(name = "limiterRefusedCallersInstrumentation")
		CallerRefusalsInstrumentation limiterRefusedCallersInstrumentation(RefusedCallers refused) {
			return new CallerRefusalsInstrumentation(refused);
		}

	}

}
