package dev.limiter.boot3.web;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.embedded.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot 3 only: with {@code limiter.max-request-body} set, Tomcat answers
 * {@code Expect: 100-continue} when the application first reads the body
 * ({@code continueResponseTiming=onRead}) instead of before the first filter runs, so a
 * declared body over the bound is refused with 413 before the client is told to send it.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter", name = "max-request-body")
@ConditionalOnClass(name = { "org.apache.catalina.connector.Connector",
		"org.springframework.boot.web.embedded.tomcat.TomcatConnectorCustomizer" })
public class LimiterTomcatContinueAutoConfiguration {

	/** The Tomcat protocol property that decides when {@code 100 Continue} is sent. */
	public static final String CONTINUE_RESPONSE_TIMING = "continueResponseTiming";

	@Bean
	public TomcatConnectorCustomizer limiterContinueOnRead() {
		return connector -> connector.setProperty(CONTINUE_RESPONSE_TIMING, "onRead");
	}

}
