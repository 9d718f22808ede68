package dev.limiter.reactive.autoconfigure;

/**
 * The application is reactive and its Redis client is Jedis, which would block an event
 * loop on every decision.
 */
public class BlockingRedisClientException extends IllegalStateException {

	static final String MESSAGE = "limiter.store is 'redis' in a reactive application whose Redis client is Jedis, "
			+ "which blocks the event loop: use Lettuce (spring.data.redis.client-type=lettuce, the default of "
			+ "spring-boot-starter-data-redis)";

	public BlockingRedisClientException() {
		super(MESSAGE);
	}

}
