package dev.limiter.routes;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.servlet.handler.HandlerMappingIntrospector;

/**
 * Spring MVC's CORS configuration of a request, for the responses the limiter writes
 * before the handler runs: what the handler Spring MVC picks would have applied
 * ({@code @CrossOrigin} on it or its class, combined with
 * {@code WebMvcConfigurer.addCorsMappings}). Found with the limiter's own handler lookup
 * rather than Spring's {@link HandlerMappingIntrospector}, which outside a request it
 * prepared itself logs a cache miss.
 */
public final class HandlerCorsConfigurations implements CorsConfigurationSource {

	private final HandlerLookup lookup;

	public HandlerCorsConfigurations(ListableBeanFactory beanFactory) {
		this.lookup = new HandlerLookup(beanFactory);
	}

	@Override
	public CorsConfiguration getCorsConfiguration(HttpServletRequest request) {
		return lookup.corsConfiguration(request);
	}

	/**
	 * Whether {@code source} is Spring MVC's own view of the same configuration, which
	 * this class replaces.
	 */
	public static boolean isSpringMvcIntrospector(CorsConfigurationSource source) {
		return source instanceof HandlerMappingIntrospector;
	}

}
