package dev.limiter.benchmarks;

import java.nio.file.Path;

import dev.limiter.test.redis.RedisBinary;

/**
 * Prints the path of a {@code redis-server} for {@code benchmarks/run}, chosen as the
 * tests choose it ({@link RedisBinary}): the one on {@code PATH} when there is one, else
 * the binary shipped inside {@code com.github.codemonstur:embedded-redis}, copied to the
 * path given as the first argument.
 */
public final class RedisServerBinary {

	private RedisServerBinary() {
	}

	public static void main(String[] args) {
		System.out.println(RedisBinary.redisServer(Path.of(args[0])));
	}

}
