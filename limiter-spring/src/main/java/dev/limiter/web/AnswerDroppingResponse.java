package dev.limiter.web;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * A response whose application answer may be dropped for the limiter's own: the subclass
 * decides before the application starts to answer (an error, a redirect, a flush, the
 * body), and once the answer is dropped, whatever the application still sets or writes
 * goes nowhere. The limiter's answer is written to the wrapped response.
 */
public abstract class AnswerDroppingResponse extends HttpServletResponseWrapper {

	protected AnswerDroppingResponse(HttpServletResponse response) {
		super(response);
	}

	private boolean dropped;

	/**
	 * Decides, as the application starts to answer, whether its answer is dropped (may
	 * read or wait for what it needs to know); asked again until it says yes.
	 */
	protected abstract boolean decide() throws IOException;

	/** Whether the answer is dropped: {@link #decide()} until it says yes, then yes. */
	protected final boolean answerDropped() throws IOException {
		if (!dropped) {
			dropped = decide();
		}
		return dropped;
	}

	/**
	 * Whether the answer is known to be dropped already, deciding nothing; a subclass
	 * that learns it otherwise may say so sooner.
	 */
	protected boolean dropping() {
		return dropped;
	}

	@Override
	public void setStatus(int sc) {
		if (!dropping()) {
			super.setStatus(sc);
		}
	}

	@Override
	public void setHeader(String name, String value) {
		if (!dropping()) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (!dropping()) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		if (!answerDropped()) {
			super.sendError(sc, msg);
		}
	}

	@Override
	public void sendError(int sc) throws IOException {
		if (!answerDropped()) {
			super.sendError(sc);
		}
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		if (!answerDropped()) {
			super.sendRedirect(location);
		}
	}

	@Override
	public void flushBuffer() throws IOException {
		if (!answerDropped()) {
			super.flushBuffer();
		}
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		return answerDropped() ? new DroppingOutputStream() : super.getOutputStream();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		return answerDropped() ? new PrintWriter(Writer.nullWriter()) : super.getWriter();
	}

	private static final class DroppingOutputStream extends ServletOutputStream {

		@Override
		public void write(int b) {
		}

		@Override
		public void write(byte[] b, int off, int len) {
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
		}

	}

}
