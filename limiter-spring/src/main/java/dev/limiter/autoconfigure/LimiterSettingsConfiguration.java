package dev.limiter.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Binds {@code limiter.*} and resolves it, once, into the {@link LimiterSettings} bean.
 * Imported by every auto-configuration that reads the configuration, so each works
 * whichever of them the application loads.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LimiterProperties.class)
public class LimiterSettingsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public LimiterSettings limiterSettings(LimiterProperties properties, Environment environment) {
		return resolve(properties, environment);
	}

	/**
	 * The checks and the resolution of start-up, in one place, so that a refreshed
	 * configuration is judged exactly as the first one; throws
	 * {@link InvalidLimiterConfigurationException}.
	 */
	public static LimiterSettings resolve(LimiterProperties properties, Environment environment) {
		// A second bind of limiter.*, kept: the unknown-key check needs its own handler
		// (which sources it judges, the names read), which @ConfigurationProperties
		// binding takes none of.
		UnknownLimiterProperties.check(environment);
		return LimiterConfigurationResolver.resolve(properties, new RouteRuleSources(environment));
	}

}
