package dev.limiter.core.contract;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * How a contract suite run through the asynchronous calls ({@link AsyncCallingStore})
 * makes each call and reads its answer: by default from the test's thread, joined there;
 * a module with Reactor makes them from a non-blocking thread under BlockHound
 * ({@code dev.limiter.test.reactive.NonBlockingThreads::call} in limiter-spring's
 * test-jar), so that the whole suite also proves the store never blocks.
 */
@FunctionalInterface
public interface AsyncCalls {

	/**
	 * Makes {@code call} and returns what its stage completes with; a failure is rethrown
	 * as the store raised it, not wrapped in a {@link CompletionException}.
	 */
	<T> T await(Supplier<? extends CompletionStage<T>> call);

	/** Calls on the test's own thread, the answer joined there. */
	static AsyncCalls onTheTestThread() {
		return AsyncCalls::joined;
	}

	private static <T> T joined(Supplier<? extends CompletionStage<T>> call) {
		try {
			return call.get().toCompletableFuture().join();
		}
		catch (CompletionException wrapped) {
			if (wrapped.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			throw wrapped;
		}
	}

}
