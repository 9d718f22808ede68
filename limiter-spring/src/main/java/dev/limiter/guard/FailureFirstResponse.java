package dev.limiter.guard;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response of an admitted lookup: a {@code 401} set on it while the credential is not
 * known to be good is reported to the guard at that moment, before a byte of the answer
 * can leave, so that the next reservation from the same address (the client's next guess)
 * finds the failure counted on this instance.
 */
final class FailureFirstResponse extends HttpServletResponseWrapper {

	private final Runnable unauthorized;

	FailureFirstResponse(HttpServletResponse response, Runnable unauthorized) {
		super(response);
		this.unauthorized = unauthorized;
	}

	@Override
	public void setStatus(int sc) {
		if (sc == SC_UNAUTHORIZED) {
			unauthorized.run();
		}
		super.setStatus(sc);
	}

	@Override
	public void sendError(int sc) throws IOException {
		if (sc == SC_UNAUTHORIZED) {
			unauthorized.run();
		}
		super.sendError(sc);
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		if (sc == SC_UNAUTHORIZED) {
			unauthorized.run();
		}
		super.sendError(sc, msg);
	}

}
