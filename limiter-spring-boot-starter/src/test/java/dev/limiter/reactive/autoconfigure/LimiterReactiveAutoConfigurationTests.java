package dev.limiter.reactive.autoconfigure;

import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;
import dev.limiter.autoconfigure.redis.LimiterRedisAutoConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.autoconfigure.routes.LimiterRoutesAutoConfiguration;
import dev.limiter.reactive.ReactiveKeyResolver;
import dev.limiter.reactive.ReactiveRateLimitFilter;
import dev.limiter.reactive.ReactiveRouteResolver;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which filter an application gets: the reactive one in a reactive web application, the
 * servlet one in a servlet application (which is what Spring Boot makes of an application
 * with both stacks), never both; and a reactive application on Jedis stops at start-up
 * with one line saying to use Lettuce.
 */
@ExtendWith(BlockHoundExtension.class)
class LimiterReactiveAutoConfigurationTests {

	private static final AutoConfigurations LIMITER = AutoConfigurations.of(LimiterAutoConfiguration.class,
			LimiterRoutesAutoConfiguration.class, LimiterServletAutoConfiguration.class,
			LimiterReactiveAutoConfiguration.class);

	@Test
	void reactiveApplicationWhenStartedShouldGetTheWebFilterAndNoServletFilter() {
		new ReactiveWebApplicationContextRunner().withConfiguration(LIMITER).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(ReactiveRateLimitFilter.class)
				.hasSingleBean(ReactiveKeyResolver.class)
				.hasSingleBean(ReactiveRouteResolver.class)
				.doesNotHaveBean(RateLimitFilter.class);
			assertThat(context.getBeansOfType(CredentialIdentity.class)).as("the servlet path's identities")
				.containsKeys("limiterAuthenticationCredentialIdentity", "limiterOAuth2TokenCredentialIdentity",
						"limiterJwtCredentialIdentity");
		});
	}

	@Test
	void servletApplicationWhenStartedShouldGetTheServletFilterAndNoWebFilter() {
		new WebApplicationContextRunner().withConfiguration(LIMITER).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(RateLimitFilter.class)
				.doesNotHaveBean(ReactiveRateLimitFilter.class);
		});
	}

	@Test
	void reactiveApplicationWhenLimiterIsDisabledShouldGetNoFilter() {
		new ReactiveWebApplicationContextRunner().withConfiguration(LIMITER)
			.withPropertyValues("limiter.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ReactiveRateLimitFilter.class));
	}

	@Test
	void reactiveApplicationWhenRedisClientIsJedisShouldStopWithOneLineSayingToUseLettuce() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterResilienceAutoConfiguration.class,
							LimiterRedisAutoConfiguration.class, LimiterReactiveAutoConfiguration.class))
			.withPropertyValues("limiter.store=redis")
			.withBean(RedisConnectionFactory.class, JedisConnectionFactory::new)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(BlockingRedisClientException.class);
				FailureAnalysis analysis = new BlockingRedisClientFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).doesNotContain("\n").contains("use Lettuce");
			});
	}

}
