package dev.limiter.autoconfigure.routes;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.routes.DocumentedPatterns;
import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.HandlerRouteResolver;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.ResolvedHandlerMapping;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RouteResolver;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Routes of a Spring MVC application: requests resolve through {@code limiter.routes},
 * then {@code @RateLimited}/{@code @RateLimitExempt} on the handler Spring MVC picks,
 * then the default budget; and at start-up every handler is inventoried, logged, and
 * (with {@code limiter.inventory.strict}) checked. Without Spring MVC the servlet
 * auto-configuration's rules-only resolver applies.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class, before = LimiterServletAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnLimiterEnabled
@Import(LimiterSettingsConfiguration.class)
@ConditionalOnBean(BudgetRegistry.class)
public class LimiterRoutesAutoConfiguration {

	/**
	 * Hands the limiter's handler lookup to the dispatcher: one handler-mapping pass per
	 * request.
	 */
	@Bean
	@ConditionalOnMissingBean
	public ResolvedHandlerMapping limiterResolvedHandlerMapping() {
		return new ResolvedHandlerMapping();
	}

	@Bean
	@ConditionalOnMissingBean
	public HandlerPolicies limiterHandlerPolicies(BudgetRegistry budgets, LimiterSettings settings) {
		return new HandlerPolicies(budgets, settings.countStaticResources());
	}

	@Bean
	@ConditionalOnMissingBean
	public RouteResolver limiterRouteResolver(LimiterSettings settings, HandlerPolicies policies, BudgetOptions options,
			ListableBeanFactory beanFactory) {
		return new HandlerRouteResolver(new PropertiesRouteResolver(settings.routes()), policies, beanFactory,
				options.anyRouteScope());
	}

	@Bean
	@ConditionalOnMissingBean
	public RouteInventoryCheck limiterRouteInventory(LimiterSettings settings, HandlerPolicies policies,
			BudgetRegistry budgets, ListableBeanFactory beanFactory, ObjectProvider<DocumentedPatterns> documented) {
		return new RouteInventoryCheck(beanFactory, settings.routes(), policies, budgets, settings.inventoryStrict(),
				() -> documented.getIfAvailable(() -> DocumentedPatterns.AS_REGISTERED));
	}

}
