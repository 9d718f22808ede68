package dev.limiter.web.body;

import dev.limiter.web.ProblemResponse;

/**
 * {@code limiter.max-request-body}'s answer, whichever web stack writes it (no servlet
 * type): the 413 problem of a body larger than the bound, with {@code Connection: close}
 * (the unread rest of the body is not worth reading).
 */
public final class BodyBound {

	/** The error code of the 413 problem body. */
	public static final String ERROR_CODE = "request_body_too_large";

	private BodyBound() {
	}

	/** The 413 of a body larger than {@code maxBytes}. */
	public static ProblemResponse tooLarge(long maxBytes) {
		String message = "The request body is larger than " + maxBytes + " bytes.";
		return ProblemResponse.of(413, "Content Too Large")
			.detail(message)
			.with("error", ERROR_CODE)
			.with("message", message)
			.with("limit", maxBytes)
			.header("Connection", "close");
	}

	/** Rejects a negative bound, naming it. */
	public static long checked(long maxBytes) {
		if (maxBytes < 0) {
			throw new IllegalArgumentException("max bytes must not be negative, was " + maxBytes);
		}
		return maxBytes;
	}

}
