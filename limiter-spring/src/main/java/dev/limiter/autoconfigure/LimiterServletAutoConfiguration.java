package dev.limiter.autoconfigure;

import java.security.Principal;
import java.time.Clock;

import dev.limiter.core.LeaseRenewer;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.routes.PropertiesRouteResolver;
import dev.limiter.servlet.DecisionInstrumentation;
import dev.limiter.servlet.DefaultKeyResolver;
import dev.limiter.servlet.DefaultRateLimitResponseWriter;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.servlet.SecurityContextPrincipals;
import dev.limiter.servlet.ServletBudgetSelectors;
import dev.limiter.spring.BudgetDefinitionSelector;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.CurrentRateLimitRules;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RouteResolver;
import dev.limiter.web.CorsHeaders;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The request path of a servlet application: who a request is counted as, which budget
 * its route uses, what the response says, and the filter that ties them together,
 * registered just after Spring Security's filter chain so that authentication has already
 * happened.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnLimiterEnabled
@Import({ LimiterSettingsConfiguration.class, LimiterCorsConfiguration.class, QuotaEndpointConfiguration.class,
		CredentialIdentityConfiguration.class })
@ConditionalOnBean(BudgetRegistry.class)
public class LimiterServletAutoConfiguration {

	/** How far after Spring Security's filter chain the limiter runs. */
	public static final int ORDER_AFTER_SECURITY = 10;

	/**
	 * Name of the filter's registration bean; define a bean with this name to register
	 * the filter yourself.
	 */
	public static final String REGISTRATION_BEAN_NAME = "rateLimitFilterRegistration";

	@Bean
	@ConditionalOnMissingBean
	public RouteResolver limiterRouteResolver(LimiterSettings settings) {
		return new PropertiesRouteResolver(settings.routes());
	}

	@Bean
	@ConditionalOnMissingBean
	public RateLimitResponseWriter limiterResponseWriter(LimiterSettings settings) {
		return new DefaultRateLimitResponseWriter(settings.headers().xRateLimit(), settings.headers().ietf());
	}

	/**
	 * The budgets, options and routes the filter reads once per request; a configuration
	 * refresh (Spring Cloud) replaces them as a whole.
	 */
	@Bean
	@ConditionalOnMissingBean
	public CurrentRateLimitRules limiterRules(LimiterSettings settings, BudgetRegistry budgets,
			ObjectProvider<BudgetOptions> options, RouteResolver routeResolver) {
		return new CurrentRateLimitRules(
				new RateLimitRules(budgets, options.getIfAvailable(settings::options), routeResolver));
	}

	/** The budgets {@link BudgetDefinitionSelector} beans define, cached and bounded. */
	@Bean
	@ConditionalOnMissingBean
	public BudgetDefinitions<HttpServletRequest> limiterBudgetDefinitions(LimiterSettings settings,
			ObjectProvider<BudgetDefinitionSelector> selectors) {
		return ServletBudgetSelectors.definitions(selectors.orderedStream().toList(), settings.maxBudgetDefinitions());
	}

	@Bean
	@ConditionalOnMissingBean
	public RateLimitFilter rateLimitFilter(LimiterSettings settings, CurrentRateLimitRules rules,
			ObjectProvider<RateLimitStore> stores, @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
			KeyResolver keyResolver, ObjectProvider<BudgetSelector> budgetSelectors,
			BudgetDefinitions<HttpServletRequest> definitions, RateLimitResponseWriter responseWriter,
			ObjectProvider<RateLimitObserver> observers, ObjectProvider<LeaseRenewer> leaseRenewer, CorsHeaders cors,
			ObjectProvider<DecisionInstrumentation> instrumentations) {
		RateLimitStore store = stores.getIfAvailable();
		if (store == null) {
			throw new InvalidLimiterConfigurationException("limiter.store", "is '"
					+ settings.store().name().toLowerCase(java.util.Locale.ROOT)
					+ "' but no RateLimitStore bean provides it (for redis: add spring-boot-starter-data-redis and "
					+ "configure a RedisConnectionFactory)");
		}
		RateLimitFilter filter = RateLimitFilter.builder(rules, store, keyResolver, responseWriter)
			.clock(clock)
			.budgetSelectors(budgetSelectors.orderedStream().toList())
			.definitions(definitions)
			.observers(observers.orderedStream().toList())
			.leaseRenewer(leaseRenewer.getIfAvailable())
			.cors(cors)
			.build();
		filter.setDecisionInstrumentations(instrumentations.orderedStream().toList());
		return filter;
	}

	/**
	 * Renews the lease of every expensive request still in flight, on one daemon thread,
	 * every third of its length (docs/adr/0010-leases.md); stopped with the context.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	public LeaseRenewer limiterLeaseRenewer(@Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock) {
		return new LeaseRenewer(clock::millis);
	}

	@Bean(name = REGISTRATION_BEAN_NAME)
	@ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
	public FilterRegistrationBean<RateLimitFilter> rateLimitFilterRegistration(RateLimitFilter filter,
			Environment environment) {
		return FilterRegistrations.of(filter, "rateLimitFilter",
				FilterRegistrations.securityFilterOrder(environment) + ORDER_AFTER_SECURITY, DispatcherType.REQUEST,
				DispatcherType.ASYNC);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
	static class SecurityKeyResolverConfiguration {

		/**
		 * Spring Security's authenticated, non-anonymous {@code Authentication}, else the
		 * container's principal, keyed by the {@link CredentialIdentity} beans in order.
		 */
		@Bean
		@ConditionalOnMissingBean
		KeyResolver limiterKeyResolver(ObjectProvider<CredentialIdentity> identities) {
			return new DefaultKeyResolver(request -> {
				Principal principal = SecurityContextPrincipals.authenticated(request);
				return principal != null ? principal : request.getUserPrincipal();
			}, identities.orderedStream().toList());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.security.core.context.SecurityContextHolder")
	static class ContainerKeyResolverConfiguration {

		@Bean
		@ConditionalOnMissingBean
		KeyResolver limiterKeyResolver(ObjectProvider<CredentialIdentity> identities) {
			return new DefaultKeyResolver(HttpServletRequest::getUserPrincipal, identities.orderedStream().toList());
		}

	}

}
