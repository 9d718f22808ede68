package dev.limiter.reactive.autoconfigure;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.reactive.ReactiveLimiterCors;
import dev.limiter.reactive.ReactiveRequestBodyLimitFilter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@code limiter.max-request-body} (off unless set) in a reactive application:
 * {@link ReactiveRequestBodyLimitFilter} at the very front of the {@code WebFilter}s,
 * ahead of Spring Security and of everything that reads a body.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "limiter", name = "max-request-body")
@Import(ReactiveCorsConfiguration.class)
class ReactiveRequestBodyConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReactiveRequestBodyLimitFilter reactiveRequestBodyLimitFilter(LimiterSettings settings, ReactiveLimiterCors cors) {
		long max = settings.maxRequestBodyBytes()
			.orElseThrow(() -> new InvalidLimiterConfigurationException("limiter.max-request-body",
					"must be a size such as 1MB, was empty"));
		return new ReactiveRequestBodyLimitFilter(max, cors);
	}

}
