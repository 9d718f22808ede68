package dev.limiter.autoconfigure.refresh;

import java.time.Clock;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.HandlerRouteResolver;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteInventoryCheck;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.RouteResolver;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Limits changed without a restart, when Spring Cloud's context is on the classpath: an
 * {@code EnvironmentChangeEvent} that touches {@code limiter.*} re-resolves the settings
 * and swaps the budgets, options and routes in at once (see
 * {@link LimiterSettingsRefresh}). Spring Cloud is optional: without it this class is
 * skipped by its class condition and none of Spring Cloud's classes is loaded.
 */
@AutoConfiguration(after = { LimiterRoutesAutoConfiguration.class, LimiterServletAutoConfiguration.class })
@ConditionalOnClass(name = "org.springframework.cloud.context.environment.EnvironmentChangeEvent")
@ConditionalOnLimiterEnabled
@ConditionalOnBean(CurrentRateLimitRules.class)
public class LimiterRefreshAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public LimiterSettingsRefresh limiterSettingsRefresh(ConfigurableEnvironment environment, LimiterSettings settings,
			CurrentRateLimitRules rules, ObjectProvider<RouteRefresh> routes,
			@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) ObjectProvider<Clock> clock) {
		return new LimiterSettingsRefresh(environment, settings, rules,
				routes.getIfAvailable(() -> LimiterRefreshAutoConfiguration::rulesOnly),
				clock.getIfAvailable(Clock::systemUTC));
	}

	@Bean
	EnvironmentChangeRefresh limiterEnvironmentChangeRefresh(LimiterSettingsRefresh refresh) {
		return new EnvironmentChangeRefresh(refresh);
	}

	/** Without Spring MVC: the rules-only resolver is rebuilt, an application's kept. */
	private static RouteRefresh.Prepared rulesOnly(LimiterSettings next, RouteResolver current) {
		RouteResolver routes = current.getClass() == PropertiesRouteResolver.class
				? new PropertiesRouteResolver(next.routes()) : current;
		return new RouteRefresh.Prepared(routes, () -> {
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.web.servlet.DispatcherServlet")
	@ConditionalOnBean(RouteInventoryCheck.class)
	static class HandlerRoutesRefreshConfiguration {

		/**
		 * The handler-aware resolver and the inventory, rebuilt and checked (annotations
		 * naming a budget that is gone, strict inventory) before anything is swapped; an
		 * application's own resolver is kept.
		 */
		@Bean
		@ConditionalOnMissingBean
		RouteRefresh limiterRouteRefresh(RouteInventoryCheck inventory, ListableBeanFactory beanFactory) {
			return (next, current) -> {
				HandlerPolicies policies = new HandlerPolicies(next.budgets(), next.countStaticResources());
				RouteInventory built = inventory.recheck(next.routes(), policies, next.budgets(),
						next.inventoryStrict());
				RouteResolver routes = current;
				if (current.getClass() == HandlerRouteResolver.class) {
					routes = new HandlerRouteResolver(new PropertiesRouteResolver(next.routes()), policies, beanFactory,
							next.options().anyRouteScope());
				}
				else if (current.getClass() == PropertiesRouteResolver.class) {
					routes = new PropertiesRouteResolver(next.routes());
				}
				return new RouteRefresh.Prepared(routes, () -> inventory.install(built));
			};
		}

	}

}
