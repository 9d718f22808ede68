package dev.limiter.autoconfigure.web;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.FilterRegistrations;
import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterCorsConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.web.CorsHeaders;
import dev.limiter.web.body.RequestBodyLimitFilter;
import jakarta.servlet.DispatcherType;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

/**
 * {@code limiter.max-request-body} (off unless set): {@link RequestBodyLimitFilter} near
 * the very front of the filter chain, ahead of Spring Security and of every filter that
 * reads a body, so an oversized body from an unauthenticated caller is refused as cheaply
 * as any other.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter", name = "max-request-body")
@Import({ LimiterSettingsConfiguration.class, LimiterCorsConfiguration.class })
public class LimiterRequestBodyAutoConfiguration {

	/**
	 * Ahead of every body-reading filter Spring Boot registers (the form-content filter
	 * is at -9900).
	 */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

	/**
	 * Name of the filter's registration; define a bean with this name to register it
	 * yourself.
	 */
	public static final String REGISTRATION_BEAN_NAME = "requestBodyLimitFilterRegistration";

	@Bean
	@ConditionalOnMissingBean
	public RequestBodyLimitFilter requestBodyLimitFilter(LimiterSettings settings, CorsHeaders cors) {
		long max = settings.maxRequestBodyBytes()
			.orElseThrow(() -> new InvalidLimiterConfigurationException("limiter.max-request-body",
					"must be a size such as 1MB, was empty"));
		return new RequestBodyLimitFilter(max, cors);
	}

	@Bean(name = REGISTRATION_BEAN_NAME)
	@ConditionalOnMissingBean(name = REGISTRATION_BEAN_NAME)
	public FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilterRegistration(
			RequestBodyLimitFilter filter) {
		return FilterRegistrations.of(filter, "requestBodyLimitFilter", ORDER, DispatcherType.REQUEST);
	}

}
