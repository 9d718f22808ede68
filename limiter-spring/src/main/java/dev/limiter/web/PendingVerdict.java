package dev.limiter.web;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;

/**
 * A refusal that may still be on its way for the current request: the authentication
 * guard sends its reservation before the credential lookup and reads the answer only when
 * it is needed, so that the lookup and the budget decision travel with it and the request
 * waits for one round trip, not two. The filter that lets the request reach the
 * application (the limiter's, after its own store call) asks {@link #refused} before it
 * goes on or writes anything; a request refused here has its answer written already.
 */
public interface PendingVerdict {

	/** The request attribute holding the current request's pending verdict, if any. */
	String ATTRIBUTE = PendingVerdict.class.getName();

	/**
	 * Waits for the answer (within the request's store timeout); {@code true} when it
	 * refuses the request, whose refusal has then been written: the caller must stop.
	 */
	boolean refused() throws IOException;

	/**
	 * {@link #refused()} of the request's pending verdict; {@code false} when it has
	 * none.
	 */
	static boolean refused(HttpServletRequest request) throws IOException {
		return request.getAttribute(ATTRIBUTE) instanceof PendingVerdict verdict && verdict.refused();
	}

}
