package dev.limiter.web.body;

import java.io.IOException;

import dev.limiter.web.AnswerDroppingResponse;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Once the body overflowed, the application's own answer (typically a 400 for an
 * unreadable body) is discarded, so that the filter can still answer 413. Before the
 * application starts to answer (asks for the output, flushes, sends an error or a
 * redirect) whatever it left unread of the body is read up to the bound: an answer is
 * committed by the time the filter sees it again, and a handler that ignores the body
 * must not wave an oversized one through.
 */
final class DiscardingAfterOverflowResponse extends AnswerDroppingResponse {

	private final BoundedRequest request;

	private ServletOutputStream stream;

	DiscardingAfterOverflowResponse(HttpServletResponse response, BoundedRequest request) {
		super(response);
		this.request = request;
	}

	@Override
	protected boolean decide() {
		request.drainWithinBound();
		return request.overflowed();
	}

	/** The body may overflow while the application reads, before it answers. */
	@Override
	protected boolean dropping() {
		return request.overflowed();
	}

	/**
	 * The body may overflow while the application writes: every write asks again.
	 */
	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		answerDropped();
		if (stream == null) {
			stream = new DiscardingOutputStream(getResponse().getOutputStream(), request);
		}
		return stream;
	}

	private static final class DiscardingOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		private final BoundedRequest request;

		DiscardingOutputStream(ServletOutputStream delegate, BoundedRequest request) {
			this.delegate = delegate;
			this.request = request;
		}

		@Override
		public void write(int b) throws IOException {
			if (!request.overflowed()) {
				delegate.write(b);
			}
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			if (!request.overflowed()) {
				delegate.write(b, off, len);
			}
		}

		@Override
		public void flush() throws IOException {
			if (!request.overflowed()) {
				delegate.flush();
			}
		}

		@Override
		public boolean isReady() {
			return delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			delegate.setWriteListener(listener);
		}

	}

}
