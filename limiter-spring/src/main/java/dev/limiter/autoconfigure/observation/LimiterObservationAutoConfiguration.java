package dev.limiter.autoconfigure.observation;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.observation.DecisionObservations;
import dev.limiter.observation.LimiterDecisionObservationConvention;
import dev.limiter.observation.ObservedDecisions;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * One Micrometer Observation per decision ({@code limiter.decision} and its children)
 * through the application's {@link ObservationRegistry}: meters through the registry's
 * meter handler, spans when Micrometer Tracing is there. Without a registry bean this
 * configuration is not there, and the filter makes nothing for it; a bean of
 * {@link LimiterDecisionObservationConvention} replaces the names and key values.
 */
@AutoConfiguration(after = LimiterAutoConfiguration.class,
		afterName = { "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" },
		before = LimiterServletAutoConfiguration.class,
		beforeName = "dev.limiter.reactive.autoconfigure.LimiterReactiveAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnLimiterEnabled
public class LimiterObservationAutoConfiguration {

	/** The observations themselves, whichever web stack asks (the reactive filter's). */
	@Bean
	@ConditionalOnMissingBean
	public DecisionObservations limiterDecisionObservations(ObservationRegistry registry,
			ObjectProvider<LimiterDecisionObservationConvention> convention) {
		return new DecisionObservations(registry, convention.getIfAvailable());
	}

	/**
	 * The servlet filter's instrumentation over them ({@code DecisionInstrumentation}
	 * names the servlet request): absent without the Servlet API.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "jakarta.servlet.http.HttpServletRequest")
	static class ServletObservationConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ObservedDecisions limiterObservedDecisions(DecisionObservations observations) {
			return new ObservedDecisions(observations);
		}

	}

}
