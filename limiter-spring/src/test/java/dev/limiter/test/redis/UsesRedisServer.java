package dev.limiter.test.redis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * Marks a test class that starts or shares a {@code redis-server} (through
 * {@link RedisServerExtension}, {@link RedisClusterExtension}, {@link SharedRedis},
 * {@link RedisServerProcess} or {@link RedisClusterProcesses}): it carries the JUnit
 * Jupiter tag {@value #TAG}, so that {@code -Dgroups=redis} runs the Redis-backed tests
 * alone ({@code .ci/run} runs them so a second time, on the embedded Redis 6.2).
 * Inherited: a contract suite's subclasses are tagged with it. jqwik reads only its own
 * tag: a jqwik property class says {@code @net.jqwik.api.Tag(UsesRedisServer.TAG)}
 * instead (that annotation here would put jqwik on every class path that uses this one).
 * A test that gets a server without the tag fails ({@link RedisTagGuard}), so none can
 * drop out of that run unnoticed.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(UsesRedisServer.TAG)
public @interface UsesRedisServer {

	/** The tag: {@code mvn verify -Dgroups=redis} runs these tests and no others. */
	String TAG = "redis";

}
