package dev.limiter.test.reactive;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.blockhound.BlockingOperationError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * BlockHound is active under {@link BlockHoundExtension}: a test that passes under it
 * proves something.
 */
@ExtendWith(BlockHoundExtension.class)
class BlockHoundExtensionTests {

	@Test
	void sleepWhenOnANonBlockingThreadShouldFailWithABlockingOperationError() {
		assertThatThrownBy(() -> NonBlockingThreads.run(() -> {
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return "slept";
		})).isInstanceOf(BlockingOperationError.class).hasMessageContaining("Thread.sleep");
	}

	@Test
	void futureGetWhenOnANonBlockingThreadShouldFailWithABlockingOperationError() {
		CompletableFuture<String> never = new CompletableFuture<>();

		assertThatThrownBy(() -> NonBlockingThreads.run(never::join)).isInstanceOf(BlockingOperationError.class);
	}

	@Test
	void stageWhenCompletedWithoutBlockingShouldAnswer() {
		assertThat(NonBlockingThreads.call(() -> CompletableFuture.completedFuture("answered"))).isEqualTo("answered");
	}

}
