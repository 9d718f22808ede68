package dev.limiter.autoconfigure;

import java.security.Principal;
import java.time.Clock;

import dev.limiter.core.RateLimitStore;
import dev.limiter.servlet.AuthenticationCredentialIdentity;
import dev.limiter.servlet.DefaultKeyResolver;
import dev.limiter.servlet.DefaultRateLimitResponseWriter;
import dev.limiter.servlet.JwtCredentialIdentity;
import dev.limiter.servlet.OAuth2TokenCredentialIdentity;
import dev.limiter.servlet.PropertiesRouteResolver;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.servlet.SecurityContextPrincipals;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * The request path of a servlet application: who a request is counted as, which budget its route uses, what
 * the response says, and the filter that ties them together, registered just after Spring Security's filter
 * chain so that authentication has already happened.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "limiter", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnBean(BudgetRegistry.class)
public class LimiterServletAutoConfiguration {

    /** How far after Spring Security's filter chain the limiter runs. */
    public static final int ORDER_AFTER_SECURITY = 10;

    private static final String OAUTH2_TOKEN_AUTHENTICATION =
            "org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken";

    /** Name of the filter's registration bean; define a bean with this name to register the filter yourself. */
    public static final String REGISTRATION_BEAN_NAME = "rateLimitFilterRegistration";

    /** Spring Boot's property for the order of Spring Security's filter chain. */
    public static final String SECURITY_FILTER_ORDER_PROPERTY = "spring.security.filter.order";

    /** Spring Boot's default for {@value #SECURITY_FILTER_ORDER_PROPERTY} (Boot 3 and Boot 4). */
    public static final int DEFAULT_SECURITY_FILTER_ORDER = -100;

    @Bean
    @ConditionalOnMissingBean
    public RouteResolver limiterRouteResolver(LimiterProperties properties) {
        return new PropertiesRouteResolver(LimiterConfigurationResolver.routes(properties));
    }

    @Bean
    @ConditionalOnMissingBean
    public RateLimitResponseWriter limiterResponseWriter(LimiterProperties properties) {
        return new DefaultRateLimitResponseWriter(properties.getHeaders().xRateLimit(), properties.getHeaders().ietf());
    }

    @Bean
    @ConditionalOnMissingBean
    public RateLimitFilter rateLimitFilter(LimiterProperties properties, BudgetRegistry budgets,
                                           ObjectProvider<RateLimitStore> stores,
                                           @Qualifier(LimiterAutoConfiguration.CLOCK_BEAN_NAME) Clock clock,
                                           KeyResolver keyResolver, RouteResolver routeResolver,
                                           ObjectProvider<BudgetSelector> budgetSelectors,
                                           RateLimitResponseWriter responseWriter,
                                           ObjectProvider<BudgetOptions> options,
                                           ObjectProvider<RateLimitObserver> observers) {
        RateLimitStore store = stores.getIfAvailable();
        if (store == null) {
            throw new InvalidLimiterConfigurationException("limiter.store", "is '"
                    + properties.getStore().name().toLowerCase(java.util.Locale.ROOT)
                    + "' but no RateLimitStore bean provides it (for redis: add spring-boot-starter-data-redis and "
                    + "configure a RedisConnectionFactory)");
        }
        return new RateLimitFilter(budgets, store, clock, keyResolver, routeResolver,
                budgetSelectors.orderedStream().toList(), responseWriter,
                options.getIfAvailable(() -> LimiterConfigurationResolver.options(properties)),
                observers.orderedStream().toList());
    }

    @Bean(name = REGISTRATION_BEAN_NAME)
    @ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
    public FilterRegistrationBean<RateLimitFilter> rateLimitFilterRegistration(RateLimitFilter filter,
            Environment environment) {
        int securityOrder = securityFilterOrder(environment);
        FilterRegistrationBean<RateLimitFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setName("rateLimitFilter");
        registration.setOrder(securityOrder + ORDER_AFTER_SECURITY);
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
        registration.addUrlPatterns("/*");
        return registration;
    }

    /**
     * Spring Security's filter-chain order, read from the property rather than Boot's {@code SecurityProperties},
     * whose class and {@code getFilter()} moved in Boot 4; the property and its default are the same on both lines.
     */
    public static int securityFilterOrder(Environment environment) {
        return environment.getProperty(SECURITY_FILTER_ORDER_PROPERTY, Integer.class, DEFAULT_SECURITY_FILTER_ORDER);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.security.core.context.SecurityContextHolder")
    static class SecurityKeyResolverConfiguration {

        /**
         * Spring Security's authenticated, non-anonymous {@code Authentication}, else the container's principal,
         * keyed by the {@link CredentialIdentity} beans in order.
         */
        @Bean
        @ConditionalOnMissingBean
        KeyResolver limiterKeyResolver(ObjectProvider<CredentialIdentity> identities) {
            return new DefaultKeyResolver(request -> {
                Principal principal = SecurityContextPrincipals.authenticated(request);
                return principal != null ? principal : request.getUserPrincipal();
            }, identities.orderedStream().toList());
        }

        /** An authentication whose principal exposes its credential. */
        @Bean
        @Order(Ordered.LOWEST_PRECEDENCE - 10)
        @ConditionalOnMissingBean(name = "limiterAuthenticationCredentialIdentity")
        CredentialIdentity limiterAuthenticationCredentialIdentity() {
            return new AuthenticationCredentialIdentity();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.security.core.context.SecurityContextHolder",
            OAUTH2_TOKEN_AUTHENTICATION})
    static class OAuth2CredentialIdentityConfiguration {

        /** An opaque (or any other) OAuth2 token authentication: its token value. */
        @Bean
        @Order(Ordered.LOWEST_PRECEDENCE - 20)
        @ConditionalOnMissingBean(name = "limiterOAuth2TokenCredentialIdentity")
        CredentialIdentity limiterOAuth2TokenCredentialIdentity() {
            return new OAuth2TokenCredentialIdentity();
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "org.springframework.security.oauth2.jwt.Jwt")
        static class JwtCredentialIdentityConfiguration {

            /** A decoded JWT: its canonical header and claims, or its issuer and subject. */
            @Bean
            @Order(Ordered.LOWEST_PRECEDENCE - 30)
            @ConditionalOnMissingBean(name = "limiterJwtCredentialIdentity")
            CredentialIdentity limiterJwtCredentialIdentity() {
                return new JwtCredentialIdentity();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.security.core.context.SecurityContextHolder")
    static class ContainerKeyResolverConfiguration {

        @Bean
        @ConditionalOnMissingBean
        KeyResolver limiterKeyResolver(ObjectProvider<CredentialIdentity> identities) {
            return new DefaultKeyResolver(jakarta.servlet.http.HttpServletRequest::getUserPrincipal,
                    identities.orderedStream().toList());
        }
    }
}
