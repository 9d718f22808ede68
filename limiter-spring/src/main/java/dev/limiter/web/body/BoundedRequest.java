package dev.limiter.web.body;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import dev.limiter.web.UnreadBody;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * A request whose body of undeclared length fails the read that passes the bound, and
 * remembers that it did.
 */
final class BoundedRequest extends HttpServletRequestWrapper {

	private final long maxBytes;

	private volatile boolean overflowed;

	private BoundedInputStream stream;

	private BufferedReader reader;

	private boolean drained;

	BoundedRequest(HttpServletRequest request, long maxBytes) {
		super(request);
		this.maxBytes = maxBytes;
	}

	boolean overflowed() {
		return overflowed;
	}

	@Override
	public ServletInputStream getInputStream() throws IOException {
		if (stream == null) {
			stream = new BoundedInputStream(super.getInputStream(), this);
		}
		return stream;
	}

	@Override
	public BufferedReader getReader() throws IOException {
		if (reader == null) {
			String encoding = getCharacterEncoding();
			Charset charset = encoding != null && Charset.isSupported(encoding) ? Charset.forName(encoding)
					: StandardCharsets.ISO_8859_1;
			reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
		}
		return reader;
	}

	/**
	 * Reads what the application left unread, stopping once past the bound; once is
	 * enough, since the application reads nothing after it started to answer.
	 */
	void drainWithinBound() {
		if (drained) {
			return;
		}
		drained = true;
		UnreadBody.drain(this);
	}

	void count(long total) throws RequestBodyTooLargeException {
		if (total > maxBytes) {
			overflowed = true;
			throw new RequestBodyTooLargeException(maxBytes);
		}
	}

	/** Thrown by a read that passes the bound. */
	static final class RequestBodyTooLargeException extends IOException {

		RequestBodyTooLargeException(long maxBytes) {
			super("request body larger than " + maxBytes + " bytes");
		}

	}

	static final class BoundedInputStream extends ServletInputStream {

		private final ServletInputStream delegate;

		private final BoundedRequest request;

		private long total;

		BoundedInputStream(ServletInputStream delegate, BoundedRequest request) {
			this.delegate = delegate;
			this.request = request;
		}

		@Override
		public int read() throws IOException {
			failIfOverflowed();
			int b = delegate.read();
			if (b >= 0) {
				request.count(++total);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			failIfOverflowed();
			int n = delegate.read(buffer, offset, length);
			if (n > 0) {
				total += n;
				request.count(total);
			}
			return n;
		}

		private void failIfOverflowed() throws RequestBodyTooLargeException {
			if (request.overflowed()) {
				throw new RequestBodyTooLargeException(request.maxBytes);
			}
		}

		@Override
		public boolean isFinished() {
			return request.overflowed() || delegate.isFinished();
		}

		@Override
		public boolean isReady() {
			return !request.overflowed() && delegate.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			delegate.setReadListener(listener);
		}

	}

}
