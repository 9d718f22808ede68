package dev.limiter.web;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.ProblemDetail;

/**
 * The one writer of every response the limiter produces itself (429, 503, 413, the
 * guard's 429, and the applications that choose to use it): an RFC 9457
 * {@link ProblemDetail} written as {@code application/problem+json} by
 * {@link ProblemJson}, never cacheable ({@code Cache-Control} and
 * {@code CDN-Cache-Control: no-store}) and never echoing anything the request sent. Every
 * header is set before the first byte of the body, so none is lost to a committed
 * response.
 */
public final class ProblemResponse {

	public static final String PROBLEM_JSON = "application/problem+json";

	private final ProblemDetail problem;

	private final Map<String, String> headers = new LinkedHashMap<>();

	private ProblemResponse(ProblemDetail problem) {
		this.problem = Objects.requireNonNull(problem, "problem");
	}

	/**
	 * A problem of {@code status} titled {@code title}, of type {@code about:blank}
	 * unless set.
	 */
	public static ProblemResponse of(int status, String title) {
		ProblemDetail problem = ProblemDetail.forStatus(status);
		problem.setTitle(title);
		return new ProblemResponse(problem);
	}

	/**
	 * Writes {@code problem} as it is; its properties must be strings, numbers or lists
	 * of strings.
	 */
	public static ProblemResponse of(ProblemDetail problem) {
		return new ProblemResponse(problem);
	}

	/** The problem type URI; {@code about:blank} unless set. */
	public ProblemResponse type(String type) {
		problem.setType(URI.create(type));
		return this;
	}

	/** The human-readable explanation of this occurrence. */
	public ProblemResponse detail(String detail) {
		problem.setDetail(detail);
		return this;
	}

	/**
	 * Adds a member; values are strings, numbers or lists of strings written by the
	 * limiter, escaped as JSON.
	 */
	public ProblemResponse with(String name, Object value) {
		problem.setProperty(name, value);
		return this;
	}

	/**
	 * Sets the {@code Retry-After} header and the body's {@code retryAfter} member, in
	 * whole seconds.
	 */
	public ProblemResponse retryAfter(long seconds) {
		header(RateLimitHeader.RETRY_AFTER.headerName(), Long.toString(seconds));
		return with(ProblemMember.RETRY_AFTER.member(), seconds);
	}

	/** Adds a response header the limiter chose (never one copied from the request). */
	public ProblemResponse header(String name, String value) {
		headers.put(name, value);
		return this;
	}

	/**
	 * Hands {@code header} every header this problem's response carries, in the order
	 * they are written: {@code Cache-Control} and {@code CDN-Cache-Control}
	 * ({@code no-store}), then the limiter's own.
	 */
	public void forEachHeader(BiConsumer<String, String> header) {
		header.accept("Cache-Control", "no-store");
		header.accept("CDN-Cache-Control", "no-store");
		headers.forEach(header);
	}

	public ProblemDetail problem() {
		return problem;
	}

	/** The body, as written. */
	public String body() {
		return ProblemJson.encode(problem);
	}

	/** Replaces whatever the response held with this problem, then commits it. */
	public void writeTo(HttpServletResponse response) throws IOException {
		writeTo(response, r -> {
		});
	}

	/**
	 * Replaces whatever the response held with this problem, letting {@code moreHeaders}
	 * add the caller's own before the body (the CORS headers the request needs, say);
	 * then commits it.
	 */
	public void writeTo(HttpServletResponse response, Consumer<HttpServletResponse> moreHeaders) throws IOException {
		response.reset();
		write(response, moreHeaders);
	}

	/**
	 * Writes this problem over the response's buffer but keeps the headers already set
	 * (the security headers of the filter chain, say), letting {@code moreHeaders} add
	 * the caller's own before the body; then commits it.
	 */
	public void writeKeepingHeaders(HttpServletResponse response, Consumer<HttpServletResponse> moreHeaders)
			throws IOException {
		response.resetBuffer();
		write(response, moreHeaders);
	}

	private void write(HttpServletResponse response, Consumer<HttpServletResponse> moreHeaders) throws IOException {
		response.setStatus(problem.getStatus());
		forEachHeader(response::setHeader);
		moreHeaders.accept(response);
		byte[] body = body().getBytes(StandardCharsets.UTF_8);
		response.setContentType(PROBLEM_JSON);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
	}

}
