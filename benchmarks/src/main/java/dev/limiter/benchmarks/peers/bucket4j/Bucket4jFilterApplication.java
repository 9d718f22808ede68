package dev.limiter.benchmarks.peers.bucket4j;

import java.io.IOException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import dev.limiter.benchmarks.peers.PeerRoute;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The HTTP peer a team writes without limiter: a plain Boot app whose servlet filter keys
 * a Bucket4j bucket on the bearer token (SHA-256, as limiter keys it) in Redis through
 * Bucket4j's Lettuce proxy manager (GET, then a compare-and-swap, retried on conflicts),
 * with limiter's default budget (600 a minute and 36,000 an hour per token), in front of
 * the same constant route as the sample app ({@link PeerRoute}).
 * {@code peer.bucket4j.enabled=false} is its own limiter-off run. Run by
 * {@code benchmarks/run}; never in {@code mvn verify}.
 */
@SpringBootApplication(proxyBeanMethods = false)
@Import(PeerRoute.class)
public class Bucket4jFilterApplication {

	public static void main(String[] args) {
		// limiter and bucket4j-spring-boot-starter share the benchmarks' class path:
		// neither runs here
		PeerRoute.start(Bucket4jFilterApplication.class,
				Map.of("limiter.enabled", "false", "bucket4j.enabled", "false", "spring.main.banner-mode", "off"),
				args);
	}

	@Bean(destroyMethod = "shutdown")
	@ConditionalOnProperty(name = "peer.bucket4j.enabled", havingValue = "true", matchIfMissing = true)
	RedisClient bucket4jRedisClient(@Value("${peer.redis.host:127.0.0.1}") String host,
			@Value("${peer.redis.port:6379}") int port) {
		return RedisClient.create(RedisURI.create(host, port));
	}

	@Bean
	@ConditionalOnProperty(name = "peer.bucket4j.enabled", havingValue = "true", matchIfMissing = true)
	FilterRegistrationBean<OncePerRequestFilter> bucket4jFilter(RedisClient client,
			@Value("${peer.budget.per-minute:600}") long perMinute,
			@Value("${peer.budget.per-hour:36000}") long perHour) {
		StatefulRedisConnection<String, byte[]> connection = client
			.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		LettuceBasedProxyManager<String> buckets = LettuceBasedProxyManager.builderFor(connection)
			.withExpirationStrategy(
					ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(2)))
			.build();
		BucketConfiguration configuration = BucketConfiguration.builder()
			.addLimit(
					Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build())
			.addLimit(Bandwidth.builder().capacity(perHour).refillIntervally(perHour, Duration.ofHours(1)).build())
			.build();
		FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
				new OncePerRequestFilter() {

					@Override
					protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
							FilterChain chain) throws ServletException, IOException {
						String authorization = request.getHeader("Authorization");
						String key = "peer:" + (authorization == null ? "anon:" + request.getRemoteAddr()
								: HexFormat.of().formatHex(PeerRoute.sha256(authorization)));
						ConsumptionProbe probe = buckets.getProxy(key, () -> configuration)
							.tryConsumeAndReturnRemaining(1);
						if (probe.isConsumed()) {
							response.setHeader("X-RateLimit-Remaining", Long.toString(probe.getRemainingTokens()));
							chain.doFilter(request, response);
						}
						else {
							long seconds = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999) / 1_000_000_000);
							response.setStatus(429);
							response.setHeader("Retry-After", Long.toString(seconds));
						}
					}

				});
		registration.setOrder(0);
		return registration;
	}

}
