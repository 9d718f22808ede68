package dev.limiter.reactive.autoconfigure;

import dev.limiter.reactive.ReactiveLimiterCors;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.reactive.HandlerMapping;

/**
 * The CORS headers of every response the reactive filters write themselves (the guard's
 * 429, the limiter's 429 and 503, the body bound's 413): the application's
 * {@link CorsConfigurationSource} beans first, then WebFlux's configuration of the
 * request's handler ({@code @CrossOrigin}, {@code WebFluxConfigurer.addCorsMappings}).
 * One bean.
 */
@Configuration(proxyBeanMethods = false)
class ReactiveCorsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReactiveLimiterCors limiterReactiveCors(ObjectProvider<CorsConfigurationSource> sources,
			ObjectProvider<HandlerMapping> mappings) {
		// looked up on the first cross-origin refusal, when every bean exists
		return new ReactiveLimiterCors(() -> sources.orderedStream().toList(),
				new LimiterReactiveAutoConfiguration.OrderedMappings(mappings));
	}

}
