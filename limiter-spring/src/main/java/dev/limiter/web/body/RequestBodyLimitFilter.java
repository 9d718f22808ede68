package dev.limiter.web.body;

import java.io.IOException;

import dev.limiter.web.CorsHeaders;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code limiter.max-request-body}: a request that declares a larger
 * {@code Content-Length} is refused with 413 before a byte of its body is read. A body of
 * undeclared length (chunked) is counted as the application reads it; the read that
 * passes the bound fails, whatever the application then answers is discarded, and the
 * response is 413. What the application leaves unread is read (up to the bound) after it
 * returns, while its answer is still uncommitted, so a handler that ignores the body
 * cannot wave an oversized one through. A body within the bound is passed on untouched (a
 * declared length is enforced by the container itself, so such a request is not even
 * wrapped).
 */
public class RequestBodyLimitFilter extends OncePerRequestFilter {

	/** The error code of the 413 problem body. */
	public static final String ERROR_CODE = BodyBound.ERROR_CODE;

	private final long maxBytes;

	private final CorsHeaders cors;

	public RequestBodyLimitFilter(long maxBytes) {
		this(maxBytes, CorsHeaders.NONE);
	}

	/**
	 * @param cors the CORS headers the 413 carries, so that a browser on another origin
	 * can read it
	 */
	public RequestBodyLimitFilter(long maxBytes, CorsHeaders cors) {
		this.maxBytes = BodyBound.checked(maxBytes);
		this.cors = cors;
	}

	public long maxBytes() {
		return maxBytes;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long declared = request.getContentLengthLong();
		if (declared > maxBytes) {
			refuse(request, response);
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
			// The application did not read it all; an answer still in the buffer can yet
			// become a 413.
			bounded.drainWithinBound();
		}
		if (bounded.overflowed() && !response.isCommitted()) {
			refuse(request, response);
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
		BodyBound.tooLarge(maxBytes).writeTo(response, r -> cors.applyTo(request, r));
	}

}
