package dev.limiter.web.body;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import dev.limiter.web.ProblemResponse;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code limiter.max-request-body}: a request that declares a larger {@code Content-Length} is refused with 413
 * before a byte of its body is read. A body of undeclared length (chunked) is counted as the application reads
 * it; the read that passes the bound fails, whatever the application then answers is discarded, and the
 * response is 413. What the application leaves unread is read (up to the bound) after it returns, while its
 * answer is still uncommitted, so a handler that ignores the body cannot wave an oversized one through. A body within the bound is passed on untouched (a declared length is enforced by the
 * container itself, so such a request is not even wrapped).
 */
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    /** The error code of the 413 problem body. */
    public static final String ERROR_CODE = "request_body_too_large";

    private final long maxBytes;

    public RequestBodyLimitFilter(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("max bytes must not be negative, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            refuse(response);
            return;
        }
        if (declared >= 0) {
            chain.doFilter(request, response);
            return;
        }
        BoundedRequest bounded = new BoundedRequest(request, maxBytes);
        DiscardingAfterOverflowResponse guarded = new DiscardingAfterOverflowResponse(response, bounded);
        try {
            chain.doFilter(bounded, guarded);
        }
        catch (IOException | ServletException | RuntimeException ex) {
            if (!bounded.overflowed()) {
                throw ex;
            }
        }
        if (!bounded.overflowed() && !response.isCommitted() && !request.isAsyncStarted()) {
            // The application did not read it all; an answer still in the buffer can yet become a 413.
            bounded.drainWithinBound();
        }
        if (bounded.overflowed() && !response.isCommitted()) {
            refuse(response);
        }
    }

    private void refuse(HttpServletResponse response) throws IOException {
        String message = "The request body is larger than " + maxBytes + " bytes.";
        // The unread rest of the body is not worth reading: close the connection instead of draining it.
        ProblemResponse.of(413, "Content Too Large")
                .with("detail", message)
                .with("error", ERROR_CODE)
                .with("message", message)
                .with("limit", maxBytes)
                .header("Connection", "close")
                .writeTo(response);
    }

    /** Thrown by a read that passes the bound. */
    static final class RequestBodyTooLargeException extends IOException {

        RequestBodyTooLargeException(long maxBytes) {
            super("request body larger than " + maxBytes + " bytes");
        }
    }

    static final class BoundedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;
        private volatile boolean overflowed;
        private BoundedInputStream stream;
        private BufferedReader reader;

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
                Charset charset = encoding != null && Charset.isSupported(encoding)
                        ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
                reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
            }
            return reader;
        }

        /** Reads what the application left unread, stopping once past the bound. */
        void drainWithinBound() {
            try {
                InputStreamDrain.drain(getInputStream());
            }
            catch (IOException | IllegalStateException ex) {
                // Past the bound (recorded), or the body was consumed another way (as parameters, say).
            }
        }

        void count(long total) throws RequestBodyTooLargeException {
            if (total > maxBytes) {
                overflowed = true;
                throw new RequestBodyTooLargeException(maxBytes);
            }
        }
    }

    private static final class InputStreamDrain {

        static void drain(ServletInputStream in) throws IOException {
            byte[] buffer = new byte[8192];
            while (in.read(buffer, 0, buffer.length) >= 0) {
                // discard
            }
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

    /**
     * Once the body overflowed, the application's own answer (typically a 400 for an unreadable body) is
     * discarded, so that the filter can still answer 413. Before the application starts to answer (asks for the
     * output, flushes, sends an error or a redirect) whatever it left unread of the body is read up to the bound:
     * an answer is committed by the time the filter sees it again, and a handler that ignores the body must not
     * wave an oversized one through.
     */
    static final class DiscardingAfterOverflowResponse extends HttpServletResponseWrapper {

        private final BoundedRequest request;
        private ServletOutputStream stream;
        private boolean bodyFinished;

        DiscardingAfterOverflowResponse(HttpServletResponse response, BoundedRequest request) {
            super(response);
            this.request = request;
        }

        private boolean answerDiscarded() {
            if (!bodyFinished) {
                bodyFinished = true;
                request.drainWithinBound();
            }
            return request.overflowed();
        }

        @Override
        public void setStatus(int sc) {
            if (!request.overflowed()) {
                super.setStatus(sc);
            }
        }

        @Override
        public void sendError(int sc) throws IOException {
            if (!answerDiscarded()) {
                super.sendError(sc);
            }
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            if (!answerDiscarded()) {
                super.sendError(sc, msg);
            }
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            if (!answerDiscarded()) {
                super.sendRedirect(location);
            }
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!answerDiscarded()) {
                super.flushBuffer();
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            answerDiscarded();
            if (stream == null) {
                stream = new DiscardingOutputStream(super.getOutputStream(), request);
            }
            return stream;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (answerDiscarded()) {
                return new PrintWriter(java.io.OutputStream.nullOutputStream());
            }
            return super.getWriter();
        }
    }

    static final class DiscardingOutputStream extends ServletOutputStream {

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
