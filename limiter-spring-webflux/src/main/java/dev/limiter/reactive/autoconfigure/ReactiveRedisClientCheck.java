package dev.limiter.reactive.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * A reactive application counts on Redis through Lettuce only: Jedis answers on the
 * calling thread, which here is an event loop. Start-up stops with
 * {@link BlockingRedisClientException} (one line,
 * {@link BlockingRedisClientFailureAnalyzer}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.data.redis.connection.jedis.JedisConnectionFactory")
@ConditionalOnProperty(prefix = "limiter", name = "store", havingValue = "redis")
class ReactiveRedisClientCheck {

	@Bean
	static SmartInitializingSingleton limiterReactiveRedisClientCheck(
			ObjectProvider<RedisConnectionFactory> connectionFactories) {
		return () -> {
			if (connectionFactories.getIfUnique() instanceof JedisConnectionFactory) {
				throw new BlockingRedisClientException();
			}
		};
	}

}
