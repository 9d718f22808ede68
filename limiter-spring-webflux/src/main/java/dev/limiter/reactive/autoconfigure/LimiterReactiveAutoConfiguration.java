package dev.limiter.reactive.autoconfigure;

import java.time.Clock;
import java.util.List;
import java.util.Locale;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.CredentialIdentityConfiguration;
import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterProperties;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.autoconfigure.QuotaEndpointWiring;
import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.decision.CallerRefusals;
import dev.limiter.decision.DecisionResponses;
import dev.limiter.observation.DecisionObservations;
import dev.limiter.reactive.HandlerMappingRouteResolver;
import dev.limiter.reactive.PrincipalKeyResolver;
import dev.limiter.reactive.ReactiveBudgetDefinitionSelector;
import dev.limiter.reactive.ReactiveBudgetSelector;
import dev.limiter.reactive.ReactiveBudgetSelectors;
import dev.limiter.reactive.ReactiveCountedFurtherOn;
import dev.limiter.reactive.ReactiveInventoryRoutes;
import dev.limiter.reactive.ReactiveKeyResolver;
import dev.limiter.reactive.ReactiveLimiterCors;
import dev.limiter.reactive.ReactiveQuotaEndpointFilter;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.reactive.ReactiveRouteInventory;
import dev.limiter.reactive.ReactiveRouteResolver;
import dev.limiter.reactive.SecurityPrincipals;
import dev.limiter.routes.HandlerPolicies;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitRules;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.StringUtils;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;

/**
 * The request path of a reactive web application: the servlet application's rules, store,
 * meters and endpoint (the shared auto-configurations), decided by
 * {@link ReactiveRateLimitFilter}, a {@code WebFilter} that runs just after Spring
 * Security's chain. In an application that has both web stacks Spring Boot makes a
 * servlet application, and the servlet filter applies instead.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class,
		afterName = { "dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration",
				"dev.limiter.autoconfigure.actuate.LimiterEndpointAutoConfiguration" })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(WebFilter.class)
@ConditionalOnLimiterEnabled
@Import({ LimiterSettingsConfiguration.class, ReactiveRedisClientCheck.class, CredentialIdentityConfiguration.class,
		ReactiveEndpointConfiguration.class, ReactiveQuotaEndpointConfiguration.class, ReactiveCorsConfiguration.class,
		ReactiveAuthGuardConfiguration.class, ReactiveRequestBodyConfiguration.class })
@ConditionalOnBean(BudgetRegistry.class)
public class LimiterReactiveAutoConfiguration {

	/**
	 * The budgets, options and {@code limiter.routes} rules the filter reads once per
	 * request; a configuration refresh replaces them as a whole.
	 */
	@Bean
	@ConditionalOnMissingBean
	public CurrentRateLimitRules limiterRules(LimiterSettings settings, BudgetRegistry budgets,
			ObjectProvider<BudgetOptions> options) {
		return new CurrentRateLimitRules(new RateLimitRules(budgets, options.getIfAvailable(settings::options),
				new PropertiesRouteResolver(settings.routes())));
	}

	@Bean
	@ConditionalOnMissingBean
	public HandlerPolicies limiterHandlerPolicies(BudgetRegistry budgets, LimiterSettings settings) {
		return new HandlerPolicies(budgets, settings.countStaticResources());
	}

	/**
	 * {@code limiter.routes}, then the annotations of the handler WebFlux's own mappings
	 * find (annotated controllers and {@code RouterFunction} routes).
	 */
	@Bean
	@ConditionalOnMissingBean
	public ReactiveRouteResolver limiterReactiveRouteResolver(CurrentRateLimitRules rules, HandlerPolicies policies,
			BudgetOptions options, ObjectProvider<HandlerMapping> mappings) {
		return new HandlerMappingRouteResolver(rules, policies, new OrderedMappings(mappings), options.anyRouteScope());
	}

	/**
	 * The routes of WebFlux's own mappings (annotated controllers and
	 * {@code RouterFunction} routes) under the rules in force, and the quota endpoint
	 * when {@code limiter.quota-endpoint.path} is set: what the quota report and the
	 * OpenAPI document read.
	 */
	@Bean
	@ConditionalOnMissingBean
	public ReactiveRouteInventory limiterReactiveRouteInventory(CurrentRateLimitRules rules, HandlerPolicies policies,
			LimiterProperties properties, ObjectProvider<HandlerMapping> mappings,
			ObjectProvider<ReactiveInventoryRoutes> otherRoutes) {
		List<RouteInventory.Entry> ownEndpoints = StringUtils.hasText(properties.getQuotaEndpoint().getPath()) ? List
			.of(QuotaEndpointWiring.of(properties).inventoryEntry(ReactiveQuotaEndpointFilter.class.getSimpleName()))
				: List.of();
		return new ReactiveRouteInventory(rules, policies, new OrderedMappings(mappings), ownEndpoints,
				() -> otherRoutes.orderedStream().toList());
	}

	/**
	 * The budgets {@link ReactiveBudgetDefinitionSelector} beans define, cached and
	 * bounded ({@code limiter.budget-definitions.max-cached}).
	 */
	@Bean
	@ConditionalOnMissingBean
	public BudgetDefinitions<ServerWebExchange> limiterBudgetDefinitions(LimiterSettings settings,
			ObjectProvider<ReactiveBudgetDefinitionSelector> selectors) {
		return ReactiveBudgetSelectors.definitions(selectors.orderedStream().toList(), settings.maxBudgetDefinitions());
	}

	@Bean
	@ConditionalOnMissingBean
	public ReactiveRateLimitFilter reactiveRateLimitFilter(LimiterSettings settings, CurrentRateLimitRules rules,
			ObjectProvider<RateLimitStore> stores, @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			ReactiveKeyResolver keyResolver, ReactiveRouteResolver routeResolver,
			ObjectProvider<ReactiveBudgetSelector> budgetSelectors, BudgetDefinitions<ServerWebExchange> definitions,
			ObjectProvider<RateLimitObserver> observers, ObjectProvider<LeaseRenewer> leaseRenewer,
			ObjectProvider<ReactiveCountedFurtherOn> countedFurtherOn, ObjectProvider<CallerRefusals> callerRefusals,
			ObjectProvider<ReactiveLimiterCors> cors, ObjectProvider<DecisionObservations> observations) {
		RateLimitStore store = stores.getIfAvailable();
		if (store == null) {
			throw new InvalidLimiterConfigurationException("limiter.store", "is '"
					+ settings.store().name().toLowerCase(Locale.ROOT)
					+ "' but no RateLimitStore bean provides it (for redis: add spring-boot-starter-data-redis and "
					+ "configure a RedisConnectionFactory)");
		}
		return ReactiveRateLimitFilter.builder(rules, store, keyResolver, routeResolver)
			.clock(clock)
			.responses(new DecisionResponses(settings.headers().xRateLimit(), settings.headers().ietf()))
			.budgetSelectors(budgetSelectors.orderedStream().toList())
			.definitions(definitions)
			.countedFurtherOn(countedFurtherOn.orderedStream().toList())
			.observers(observers.orderedStream().toList())
			.leaseRenewer(leaseRenewer.getIfAvailable())
			.callerRefusals(callerRefusals.orderedStream().toList())
			.cors(cors.getIfAvailable(() -> ReactiveLimiterCors.NONE))
			.observations(observations.getIfAvailable())
			.build();
	}

	/**
	 * Renews the lease of every expensive request still in flight, on one daemon thread
	 * (never an event loop), every third of its length; stopped with the context.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	public LeaseRenewer limiterLeaseRenewer(@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock) {
		return new LeaseRenewer(clock::millis);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.security.core.context.ReactiveSecurityContextHolder")
	static class SecurityKeyResolverConfiguration {

		/**
		 * The authenticated, non-anonymous {@code Authentication} of reactive Spring
		 * Security's context, else the exchange's principal, keyed by the
		 * {@link CredentialIdentity} beans in order.
		 */
		@Bean
		@ConditionalOnMissingBean
		ReactiveKeyResolver limiterReactiveKeyResolver(ObjectProvider<CredentialIdentity> identities) {
			return new PrincipalKeyResolver(SecurityPrincipals::authenticated, identities.orderedStream().toList());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.security.core.context.ReactiveSecurityContextHolder")
	static class ExchangeKeyResolverConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ReactiveKeyResolver limiterReactiveKeyResolver(ObjectProvider<CredentialIdentity> identities) {
			return new PrincipalKeyResolver((exchange) -> exchange.getPrincipal(), identities.orderedStream().toList());
		}

	}

	/**
	 * WebFlux's handler mappings in the dispatcher's order, read at the first request:
	 * they are made after the filter.
	 */
	static final class OrderedMappings implements java.util.function.Supplier<List<HandlerMapping>> {

		private final ObjectProvider<HandlerMapping> mappings;

		private volatile List<HandlerMapping> ordered;

		OrderedMappings(ObjectProvider<HandlerMapping> mappings) {
			this.mappings = mappings;
		}

		@Override
		public List<HandlerMapping> get() {
			List<HandlerMapping> result = ordered;
			if (result == null) {
				result = mappings.orderedStream().toList();
				ordered = result;
			}
			return result;
		}

	}

}
