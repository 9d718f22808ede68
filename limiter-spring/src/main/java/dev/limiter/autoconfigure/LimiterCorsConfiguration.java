package dev.limiter.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.limiter.routes.HandlerCorsConfigurations;
import dev.limiter.web.CorsHeaders;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;
import org.springframework.web.cors.CorsConfigurationSource;

/**
 * The CORS headers of the responses the limiter writes itself (its 429 and 503, the
 * guard's 429, the 413), from the application's own configuration: its
 * {@link CorsConfigurationSource} beans first (what Spring Security's
 * {@code http.cors(...)} applies), then, with Spring MVC, what the request's handler
 * would get ({@code @CrossOrigin}, {@code WebMvcConfigurer.addCorsMappings}). Imported by
 * every auto-configuration whose filter writes a response; one bean.
 */
@Configuration(proxyBeanMethods = false)
public class LimiterCorsConfiguration {

	private static final boolean SPRING_MVC_PRESENT = ClassUtils.isPresent(
			"org.springframework.web.servlet.DispatcherServlet", LimiterCorsConfiguration.class.getClassLoader());

	@Bean
	@ConditionalOnMissingBean
	public CorsHeaders limiterCorsHeaders(ObjectProvider<CorsConfigurationSource> applicationSources,
			ListableBeanFactory beanFactory) {
		// looked up on the first cross-origin response, when every bean exists
		return new CorsHeaders(() -> {
			List<CorsConfigurationSource> sources = new ArrayList<>();
			applicationSources.orderedStream()
				.filter(source -> !SPRING_MVC_PRESENT || !HandlerCorsConfigurations.isSpringMvcIntrospector(source))
				.forEach(sources::add);
			if (SPRING_MVC_PRESENT) {
				sources.add(new HandlerCorsConfigurations(beanFactory));
			}
			return List.copyOf(sources);
		});
	}

}
