package dev.limiter.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Whether the rate limiter let the current request through, told to whoever waits for it:
 * the authentication guard counts a credential's success only for a request the limiter
 * admitted, so that a caller refused with {@code 429} proves nothing. The limiter's
 * filter tells it once per request, after its decision (an exempt route or a refusal
 * recorded only in shadow mode is admitted; a refusal or an unavailable store is not).
 */
public interface LimiterAdmission {

	/** The request attribute holding who waits for the current request's decision. */
	String ATTRIBUTE = LimiterAdmission.class.getName();

	/** The limiter decided: {@code admitted} when the request goes on to the handler. */
	void decided(boolean admitted);

	/** Tells the current request's listener, if any. */
	static void decided(HttpServletRequest request, boolean admitted) {
		if (request.getAttribute(ATTRIBUTE) instanceof LimiterAdmission listener) {
			listener.decided(admitted);
		}
	}

}
