package dev.limiter.servlet;

import java.util.function.Supplier;

import dev.limiter.core.Decision;
import dev.limiter.decision.AfterResponseWork;

/**
 * One request followed by a {@link DecisionInstrumentation}, from its store call to what
 * it hands back after its response. Called on the request thread, except
 * {@link AfterResponse#done}, which may run on the store's thread.
 */
public interface InstrumentedDecision {

	/** Work after the response: a lease handed back. */
	String LEASE_RELEASE = AfterResponseWork.LEASE_RELEASE;

	/** Work after the response: a reservation settled (ADR 0012). */
	String SETTLEMENT = AfterResponseWork.SETTLEMENT;

	/** Makes the store call that decides the request, and returns its decision. */
	default Decision storeCall(Supplier<Decision> call) {
		return call.get();
	}

	/**
	 * The request's decision.
	 * @param shadowRefused whether shadow mode let a refusal through
	 */
	default void decided(Decision decision, boolean shadowRefused) {
	}

	/**
	 * The store could not decide and the request is answered 503 (a fail-closed budget).
	 */
	default void unavailable(RuntimeException failure) {
	}

	/**
	 * Work this request's admission does after its response ({@link #LEASE_RELEASE},
	 * {@link #SETTLEMENT}) begins; the answer is told when it is done.
	 */
	default AfterResponse afterResponse(String kind, String budget) {
		return AfterResponse.NONE;
	}

	/** Work after the response, told when it is done. */
	interface AfterResponse {

		/** Follows nothing. */
		AfterResponse NONE = (failure) -> {
		};

		/**
		 * The work is done.
		 * @param failure why it failed, {@code null} when it did not
		 */
		void done(Throwable failure);

	}

}
