package dev.limiter.benchmarks.peers.starter;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.limiter.benchmarks.peers.PeerRoute;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The HTTP peer a team installs instead of writing one: a plain Boot app with
 * {@code bucket4j-spring-boot-starter} (0.12.10) configured by properties alone, in front
 * of the same constant route as the sample app ({@link PeerRoute}).
 * <p>
 * Its servlet filter keys a bucket on the bearer token with the SpEL expression
 * {@code getHeader('Authorization')}, with limiter's default budget as two bandwidths
 * (600 a minute and 36,000 an hour per token, refilled at each interval's end), in Redis.
 * The starter's Redis backend for a servlet filter is {@code cache-to-use: redis-jedis}
 * (Bucket4j's Jedis compare-and-swap proxy manager on a {@link JedisPool} the application
 * declares): in 0.12.10 its {@code redis-lettuce} and {@code redis-redisson} backends are
 * asynchronous and serve only WebFlux and Gateway filters. {@code bucket4j.enabled=false}
 * is its own limiter-off run (the same app, the filter and the pool not created). Run by
 * {@code benchmarks/run}; never in {@code mvn verify}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@Import(PeerRoute.class)
public class StarterFilterApplication {

	public static void main(String[] args) {
		PeerRoute.start(StarterFilterApplication.class, defaults(), args);
	}

	/**
	 * The starter's configuration, as a user writes it in {@code application.yml}; the
	 * budget's two limits are {@code peer.budget.per-minute} and
	 * {@code peer.budget.per-hour}, as for the other peer.
	 */
	static Map<String, Object> defaults() {
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("limiter.enabled", "false");
		defaults.put("spring.main.banner-mode", "off");
		defaults.put("bucket4j.enabled", "true");
		defaults.put("bucket4j.cache-to-use", "redis-jedis");
		String filter = "bucket4j.filters[0].";
		defaults.put(filter + "cache-name", "peer-starter");
		defaults.put(filter + "url", ".*");
		String limit = filter + "rate-limits[0].";
		defaults.put(limit + "cache-key", "getHeader('Authorization')");
		defaults.put(limit + "bandwidths[0].capacity", "${peer.budget.per-minute:600}");
		defaults.put(limit + "bandwidths[0].time", "1");
		defaults.put(limit + "bandwidths[0].unit", "minutes");
		defaults.put(limit + "bandwidths[0].refill-speed", "interval");
		defaults.put(limit + "bandwidths[1].capacity", "${peer.budget.per-hour:36000}");
		defaults.put(limit + "bandwidths[1].time", "1");
		defaults.put(limit + "bandwidths[1].unit", "hours");
		defaults.put(limit + "bandwidths[1].refill-speed", "interval");
		return defaults;
	}

	/**
	 * The pool the starter's {@code redis-jedis} backend borrows a connection from per
	 * decision: more connections than {@code wrk}'s 8, so that no request waits for one.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnProperty(name = "bucket4j.enabled", havingValue = "true", matchIfMissing = true)
	JedisPool starterJedisPool(@Value("${peer.redis.host:127.0.0.1}") String host,
			@Value("${peer.redis.port:6379}") int port) {
		JedisPoolConfig config = new JedisPoolConfig();
		config.setMaxTotal(16);
		config.setMaxIdle(16);
		return new JedisPool(config, host, port);
	}

}
