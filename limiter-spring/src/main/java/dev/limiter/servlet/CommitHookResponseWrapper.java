package dev.limiter.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * Runs a hook once, at the last moment headers can still be changed: before the first
 * byte of the body, a flush, an error or a redirect, or when the filter finishes and
 * nothing committed the response yet.
 *
 * <p>
 * Counter headers are written this late because whether they may be written depends on
 * the {@code Cache-Control} the application sets while it handles the request.
 */
public class CommitHookResponseWrapper extends HttpServletResponseWrapper {

	private final Runnable beforeCommit;

	private final AtomicBoolean done = new AtomicBoolean();

	private ServletOutputStream outputStream;

	private PrintWriter writer;

	public CommitHookResponseWrapper(HttpServletResponse response, Runnable beforeCommit) {
		super(response);
		this.beforeCommit = beforeCommit;
	}

	/** Runs the hook if it has not run and the response can still take headers. */
	public void runHookIfNotCommitted() {
		if (!isCommitted()) {
			runHook();
		}
		else {
			done.set(true);
		}
	}

	private void runHook() {
		if (done.compareAndSet(false, true)) {
			beforeCommit.run();
		}
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (outputStream == null) {
			outputStream = new HookOutputStream(super.getOutputStream());
		}
		return outputStream;
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (writer == null) {
			writer = new HookWriter(super.getWriter());
		}
		return writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		runHookIfNotCommitted();
		super.flushBuffer();
	}

	@Override
	public void sendError(int sc) throws IOException {
		runHookIfNotCommitted();
		super.sendError(sc);
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		runHookIfNotCommitted();
		super.sendError(sc, msg);
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		runHookIfNotCommitted();
		super.sendRedirect(location);
	}

	private final class HookOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		HookOutputStream(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int b) throws IOException {
			runHookIfNotCommitted();
			delegate.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			runHookIfNotCommitted();
			delegate.write(b, off, len);
		}

		@Override
		public void flush() throws IOException {
			runHookIfNotCommitted();
			delegate.flush();
		}

		@Override
		public void close() throws IOException {
			runHookIfNotCommitted();
			delegate.close();
		}

		@Override
		public boolean isReady() {
			return delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
			delegate.setWriteListener(writeListener);
		}

	}

	private final class HookWriter extends PrintWriter {

		HookWriter(PrintWriter delegate) {
			super(delegate);
		}

		@Override
		public void write(int c) {
			runHookIfNotCommitted();
			super.write(c);
		}

		@Override
		public void write(char[] buf, int off, int len) {
			runHookIfNotCommitted();
			super.write(buf, off, len);
		}

		@Override
		public void write(String s, int off, int len) {
			runHookIfNotCommitted();
			super.write(s, off, len);
		}

		@Override
		public void flush() {
			runHookIfNotCommitted();
			super.flush();
		}

		@Override
		public void close() {
			runHookIfNotCommitted();
			super.close();
		}

	}

}
