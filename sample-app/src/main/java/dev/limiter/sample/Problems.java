package dev.limiter.sample;

import java.io.IOException;

import dev.limiter.web.ProblemResponse;
import jakarta.servlet.http.HttpServletResponse;

/**
 * RFC 9457 problem responses of the sample's own authentication and bodies, written by
 * the limiter's writer, so that every problem the application answers has one shape. The
 * security headers already set are kept.
 */
final class Problems {

	private Problems() {
	}

	static void badRequest(HttpServletResponse response, String detail) throws IOException {
		ProblemResponse.of(400, "Bad Request").detail(detail).writeKeepingHeaders(response, r -> {
		});
	}

	static void forbidden(HttpServletResponse response, String detail) throws IOException {
		ProblemResponse.of(403, "Forbidden").detail(detail).writeKeepingHeaders(response, r -> {
		});
	}

	static void unauthorized(HttpServletResponse response, String error, String detail) throws IOException {
		ProblemResponse.of(401, "Unauthorized")
			.detail(detail)
			.with("error", error)
			.header("WWW-Authenticate", "Bearer error=\"" + error + "\"")
			.writeKeepingHeaders(response, r -> {
			});
	}

}
