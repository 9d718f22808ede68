package dev.limiter.autoconfigure.openapi;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.decision.BudgetDefinitions;
import dev.limiter.openapi.AnonymousAccess;
import dev.limiter.openapi.RateLimitOpenApiCustomizer;
import dev.limiter.openapi.SecurityAnonymousAccess;
import dev.limiter.routes.CurrentRouteInventory;
import dev.limiter.routes.DocumentedPatterns;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CurrentRateLimitRules;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;

/**
 * The limits in springdoc-openapi's document, when springdoc is on the classpath and
 * {@code limiter.openapi.enabled} is not {@code false}: every counted operation gains its
 * {@code 429}, the counter headers and an {@code x-ratelimit} extension, read from the
 * route inventory of the application's web stack (Spring MVC's or WebFlux's, with
 * springdoc's module for that stack); the anonymous budget only on operations Spring
 * Security lets an anonymous caller reach (unknown without it, and on WebFlux, whose
 * security has no privilege evaluator to ask: an {@link AnonymousAccess} bean answers
 * instead). springdoc is optional: without it this class is skipped by its class
 * condition and none of springdoc's or swagger's classes is loaded.
 */
@AutoConfiguration(after = { LimiterRoutesAutoConfiguration.class, LimiterServletAutoConfiguration.class },
		afterName = "dev.limiter.reactive.autoconfigure.LimiterReactiveAutoConfiguration")
@ConditionalOnClass(name = "org.springdoc.core.customizers.GlobalOpenApiCustomizer")
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter.openapi", name = "enabled", matchIfMissing = true)
@ConditionalOnBean({ CurrentRouteInventory.class, CurrentRateLimitRules.class })
public class LimiterOpenApiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public RateLimitOpenApiCustomizer limiterOpenApiCustomizer(CurrentRouteInventory inventory,
			CurrentRateLimitRules rules, LimiterSettings settings, ObjectProvider<BudgetSelector> selectors,
			ObjectProvider<BudgetDefinitions<?>> definitions, ObjectProvider<AnonymousAccess> anonymousAccess,
			ObjectProvider<DocumentedPatterns> documented) {
		return new RateLimitOpenApiCustomizer(inventory::inventory, rules::budgets, settings.headers().xRateLimit(),
				settings.headers().ietf(),
				selectors.orderedStream().findAny().isPresent()
						|| definitions.stream().anyMatch(BudgetDefinitions::any),
				anonymousAccess.getIfAvailable(() -> AnonymousAccess.UNKNOWN),
				documented.getIfAvailable(() -> DocumentedPatterns.AS_REGISTERED));
	}

	/**
	 * With Spring Security: which operations an anonymous caller reaches, asked of the
	 * application's filter chains when the document is built.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(name = "org.springframework.security.web.access.WebInvocationPrivilegeEvaluator")
	static class SecurityAnonymousAccessConfiguration {

		@Bean
		@ConditionalOnMissingBean(AnonymousAccess.class)
		AnonymousAccess limiterAnonymousAccess(ObjectProvider<WebInvocationPrivilegeEvaluator> evaluators) {
			return new SecurityAnonymousAccess(evaluators::getIfUnique);
		}

	}

}
