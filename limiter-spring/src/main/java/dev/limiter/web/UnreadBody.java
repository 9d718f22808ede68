package dev.limiter.web;

import java.io.IOException;
import java.io.Reader;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Reads what the application left unread of a request's body, on the request's own
 * thread, so that the request is still in flight while its client sends it: an expensive
 * request keeps its lease until its body has arrived or its connection closed, however
 * slowly it trickles (docs/adr/0010-leases.md). Left to the container, the rest would be
 * read after the request ended, its lease already back.
 */
public final class UnreadBody {

	private UnreadBody() {
	}

	/**
	 * Reads the rest of the body and discards it; returns when it ended, the connection
	 * closed or a read failed (a body bound passed, say). A body the application read as
	 * characters is read on as characters.
	 */
	public static void drain(HttpServletRequest request) {
		try {
			ServletInputStream in;
			try {
				in = request.getInputStream();
			}
			catch (IllegalStateException readAsCharacters) {
				drain(request.getReader());
				return;
			}
			byte[] buffer = new byte[8192];
			while (in.read(buffer, 0, buffer.length) >= 0) {
				// discard
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the connection closed, a bound was passed, or the body was consumed another
			// way (as form parameters): nothing left to wait for
		}
	}

	private static void drain(Reader reader) throws IOException {
		char[] buffer = new char[4096];
		while (reader.read(buffer, 0, buffer.length) >= 0) {
			// discard
		}
	}

}
