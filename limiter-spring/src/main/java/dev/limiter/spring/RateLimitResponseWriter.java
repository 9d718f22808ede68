package dev.limiter.spring;

import java.io.IOException;

import dev.limiter.core.Decision;
import dev.limiter.core.StoreUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Writes what the limiter says on the wire: the counter headers of an admitted response
 * and the whole response of a refusal. Define a bean of this type to replace the default.
 */
public interface RateLimitResponseWriter {

	/**
	 * Adds the per-caller counter headers of an admitted request. Called once, just
	 * before the response is committed, and only when the application did not mark the
	 * response cacheable by a shared cache.
	 */
	void writeCounters(HttpServletResponse response, Decision decision);

	/** Writes the whole response of a refused request; the handler is not called. */
	void writeRefusal(HttpServletRequest request, HttpServletResponse response, Decision decision) throws IOException;

	/**
	 * Writes the whole response of a request whose budget fails closed
	 * ({@code on-store-failure: closed}) while the store cannot answer; the handler is
	 * not called.
	 */
	void writeUnavailable(HttpServletRequest request, HttpServletResponse response, StoreUnavailableException failure)
			throws IOException;

}
