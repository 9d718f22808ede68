package dev.limiter.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.limiter.core.Lease;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.test.redis.RedisClientKind;
import dev.limiter.test.redis.RedisServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the call layer says when a command sent without waiting is lost (here: nothing
 * listens on the port): it names what could not be done, a lease release or the guard's
 * settlement, on either client.
 */
class RedisScriptCallsTests {

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	private final Logger logger = (Logger) LoggerFactory.getLogger(RedisScriptCalls.class);

	private Level levelBefore;

	private RedisConnectionFactory connectionFactory;

	@BeforeEach
	void captureDebug() {
		levelBefore = logger.getLevel();
		logger.setLevel(Level.DEBUG);
		logged.start();
		logger.addAppender(logged);
	}

	@AfterEach
	void restore() throws Exception {
		logger.detachAppender(logged);
		logger.setLevel(levelBefore);
		if (connectionFactory instanceof DisposableBean disposable) {
			disposable.destroy();
		}
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void guardSettlementWhenLostShouldBeLoggedAsTheGuardsNotAsALeaseRelease(RedisClientKind client) {
		RedisRateLimitStore store = storeOnAClosedPort(client);
		AuthGuardStore guard = store.authGuardStore(AuthGuardPolicy.defaults());
		Lease reservation = new Lease("auth-guard-pending", "address", "r-1", 60_000);

		guard.succeed("address", reservation, "credential", 1_000);
		guard.release(reservation, 1_000);

		await().atMost(30, TimeUnit.SECONDS)
			.untilAsserted(() -> assertThat(messages()).contains(
					"Redis store could not settle the authentication guard's reservation; it will expire by itself",
					"Redis store could not release the authentication guard's reservation; it will expire by itself"));
		assertThat(messages()).noneMatch(message -> message.contains("could not release a lease"));
	}

	@ParameterizedTest
	@EnumSource(RedisClientKind.class)
	void leaseReleaseWhenLostShouldBeLoggedAsALeaseRelease(RedisClientKind client) {
		RedisRateLimitStore store = storeOnAClosedPort(client);

		store.release(new Lease("budget", "key", "l-1", 60_000), 1_000);

		await().atMost(30, TimeUnit.SECONDS)
			.untilAsserted(() -> assertThat(messages())
				.contains("Redis store could not release a lease; it will expire by itself"));
	}

	private RedisRateLimitStore storeOnAClosedPort(RedisClientKind client) {
		RedisStandaloneConfiguration closed = new RedisStandaloneConfiguration("127.0.0.1",
				RedisServerProcess.freePort(false));
		if (client == RedisClientKind.LETTUCE) {
			LettuceConnectionFactory lettuce = new LettuceConnectionFactory(closed);
			lettuce.afterPropertiesSet();
			connectionFactory = lettuce;
		}
		else {
			JedisConnectionFactory jedis = new JedisConnectionFactory(closed);
			jedis.afterPropertiesSet();
			connectionFactory = jedis;
		}
		return RedisRateLimitStore.builder(connectionFactory).timeout(Duration.ofMillis(200)).build();
	}

	private List<String> messages() {
		return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
	}

}
