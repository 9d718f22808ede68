package dev.limiter.reactive.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Start-up stopped by Jedis in a reactive application: one line saying to use Lettuce.
 */
public class BlockingRedisClientFailureAnalyzer extends AbstractFailureAnalyzer<BlockingRedisClientException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BlockingRedisClientException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"Remove Jedis and use Lettuce (spring.data.redis.client-type=lettuce).", cause);
	}

}
