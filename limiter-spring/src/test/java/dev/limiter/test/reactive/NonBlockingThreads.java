package dev.limiter.test.reactive;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Calls made from a non-blocking thread (Reactor's {@code parallel} scheduler, as a
 * reactive request's code runs on an event loop), their answer read back on the test's
 * own thread. Under {@link BlockHoundExtension} any blocking call they make fails the
 * test with a {@code BlockingOperationError}.
 */
public final class NonBlockingThreads {

	/** How long a test waits for an answer before it fails. */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private NonBlockingThreads() {
	}

	/**
	 * Runs {@code call} on a {@code parallel} thread and returns what its stage completes
	 * with; a failure of the call or of its stage is rethrown here (unwrapped, as Reactor
	 * does).
	 */
	public static <T> T call(Supplier<? extends CompletionStage<T>> call) {
		return unwrapped(stage(call));
	}

	/**
	 * {@link #call} as a {@link Mono}, for a test that times it or runs several at once.
	 */
	public static <T> Mono<T> stage(Supplier<? extends CompletionStage<T>> call) {
		return Mono.defer(() -> Mono.fromCompletionStage(call.get())).subscribeOn(Schedulers.parallel());
	}

	/** Runs {@code action} on a {@code parallel} thread and returns its result. */
	public static <T> T run(Supplier<T> action) {
		return unwrapped(Mono.fromSupplier(action).subscribeOn(Schedulers.parallel()));
	}

	/**
	 * Blocks the test's thread for the answer; a failure is rethrown as it was raised (a
	 * {@code BlockingOperationError} too), not in Reactor's wrapper.
	 */
	private static <T> T unwrapped(Mono<T> answer) {
		try {
			return answer.block(PATIENCE);
		}
		catch (RuntimeException wrapped) {
			Throwable failure = Exceptions.unwrap(wrapped);
			if (failure instanceof Error error) {
				throw error;
			}
			throw (failure instanceof RuntimeException runtime) ? runtime : wrapped;
		}
	}

}
