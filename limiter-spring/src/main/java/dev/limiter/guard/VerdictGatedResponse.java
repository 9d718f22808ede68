package dev.limiter.guard;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

import dev.limiter.web.PendingVerdict;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response of a request whose guard admission is still on its way: nothing the chain
 * sends reaches the client before the admission is known, so that a refused request never
 * shows the lookup's verdict (a 401, or the application's answer). Once refused (the
 * refusal is written by the {@link PendingVerdict}), whatever the chain still writes is
 * dropped.
 */
final class VerdictGatedResponse extends HttpServletResponseWrapper {

	private final PendingVerdict verdict;

	private boolean refused;

	VerdictGatedResponse(HttpServletResponse response, PendingVerdict verdict) {
		super(response);
		this.verdict = verdict;
	}

	private boolean admitted() throws IOException {
		if (!refused) {
			refused = verdict.refused();
		}
		return !refused;
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		if (admitted()) {
			super.sendError(sc, msg);
		}
	}

	@Override
	public void sendError(int sc) throws IOException {
		if (admitted()) {
			super.sendError(sc);
		}
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		if (admitted()) {
			super.sendRedirect(location);
		}
	}

	@Override
	public void flushBuffer() throws IOException {
		if (admitted()) {
			super.flushBuffer();
		}
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		return admitted() ? super.getOutputStream() : new DiscardingOutputStream();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		return admitted() ? super.getWriter() : new PrintWriter(Writer.nullWriter());
	}

	@Override
	public void setStatus(int sc) {
		if (!refused) {
			super.setStatus(sc);
		}
	}

	@Override
	public void setHeader(String name, String value) {
		if (!refused) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (!refused) {
			super.addHeader(name, value);
		}
	}

	private static final class DiscardingOutputStream extends ServletOutputStream {

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
