package dev.limiter.reactive.autoconfigure;

import dev.limiter.actuate.NoStoreEndpoint;
import dev.limiter.reactive.NoStoreEndpointWebFilter;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code limiter} endpoint's responses on a reactive application: marked
 * {@code no-store} as on a servlet one. The endpoint itself, its data and the
 * most-refused callers are the shared auto-configuration's
 * ({@code LimiterEndpointAutoConfiguration}); the reactive filter tells the latter of
 * each refusal.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBean(NoStoreEndpoint.class)
class ReactiveEndpointConfiguration {

	@Bean
	@ConditionalOnMissingBean
	NoStoreEndpointWebFilter limiterEndpointNoStoreWebFilter(NoStoreEndpoint endpoint) {
		return new NoStoreEndpointWebFilter(endpoint);
	}

}
