package dev.limiter.autoconfigure.redis;

import dev.limiter.autoconfigure.ConditionalOnLimiterEnabled;
import dev.limiter.autoconfigure.FieldProperties;
import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterAutoConfiguration;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.autoconfigure.resilience.LimiterResilienceAutoConfiguration;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.RateLimitStore;
import dev.limiter.redis.RedisRateLimitStore;
import dev.limiter.resilience.FailOpenRateLimitStore;
import dev.limiter.resilience.FailurePolicy;
import dev.limiter.resilience.StoreStack;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@code limiter.store=redis}: counters in Redis through the application's own
 * {@link RedisConnectionFactory} (standalone, Sentinel or Cluster, configured with the
 * ordinary {@code spring.data.redis.*} keys).
 *
 * <p>
 * spring-data-redis is optional: this class names no Redis type outside the nested
 * configuration that is only read when spring-data-redis is present, so an application
 * without it never loads a Redis class. Asking for the Redis store without
 * spring-data-redis, or without a connection factory, stops start-up with a message that
 * names {@code limiter.store} and the missing piece.
 */
@AutoConfiguration(before = LimiterAutoConfiguration.class, after = LimiterResilienceAutoConfiguration.class,
		afterName = { "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
				"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnLimiterEnabled
@ConditionalOnProperty(prefix = "limiter", name = "store", havingValue = "redis")
@Import(LimiterSettingsConfiguration.class)
public class LimiterRedisAutoConfiguration {

	static final String REDIS_CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = REDIS_CONNECTION_FACTORY)
	static class RedisStoreConfiguration {

		@Bean(name = LimiterAutoConfiguration.STORE_BEAN_NAME)
		@ConditionalOnMissingBean(RateLimitStore.class)
		FailOpenRateLimitStore limiterStore(LimiterSettings settings,
				ObjectProvider<RedisConnectionFactory> connectionFactories, FailurePolicy failurePolicy) {
			return StoreStack.remote(redisStore(settings, connectionFactories), failurePolicy);
		}

		private static RedisRateLimitStore redisStore(LimiterSettings settings,
				ObjectProvider<RedisConnectionFactory> connectionFactories) {
			RedisConnectionFactory connectionFactory = connectionFactories.getIfUnique();
			if (connectionFactory == null) {
				throw new InvalidLimiterConfigurationException("limiter.store",
						"is 'redis' but the application has no single RedisConnectionFactory bean: add "
								+ "spring-boot-starter-data-redis and configure spring.data.redis.*, or define one "
								+ "RedisConnectionFactory bean");
			}
			try {
				return RedisRateLimitStore.builder(connectionFactory)
					.keyPrefix(settings.redisKeyPrefix())
					.timeout(settings.redisTimeout())
					.build();
			}
			catch (InvalidValueException ex) {
				throw FieldProperties.invalid("redis", ex);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass(REDIS_CONNECTION_FACTORY)
	static class SpringDataRedisMissingConfiguration {

		@Bean(name = LimiterAutoConfiguration.STORE_BEAN_NAME)
		@ConditionalOnMissingBean(RateLimitStore.class)
		RateLimitStore limiterStore() {
			throw new InvalidLimiterConfigurationException("limiter.store",
					"is 'redis' but spring-data-redis is not on the classpath: add the "
							+ "org.springframework.boot:spring-boot-starter-data-redis dependency");
		}

	}

}
