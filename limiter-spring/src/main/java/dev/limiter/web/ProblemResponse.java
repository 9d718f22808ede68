package dev.limiter.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

/**
 * An RFC 9457 {@code application/problem+json} answer the limiter produces itself: never cacheable
 * ({@code Cache-Control} and {@code CDN-Cache-Control: no-store}) and never echoing anything the request sent.
 */
public final class ProblemResponse {

    public static final String PROBLEM_JSON = "application/problem+json";

    private final int status;
    private final String title;
    private String type = "about:blank";
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private Long retryAfterSeconds;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private ProblemResponse(int status, String title) {
        this.status = status;
        this.title = title;
    }

    public static ProblemResponse of(int status, String title) {
        return new ProblemResponse(status, title);
    }

    /** The problem type URI; {@code about:blank} unless set. */
    public ProblemResponse type(String type) {
        this.type = type;
        return this;
    }

    /** Adds a member; values are strings, numbers or lists of strings written by the limiter, escaped as JSON. */
    public ProblemResponse with(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    /** Sets the {@code Retry-After} header and the body's {@code retryAfter} member, in whole seconds. */
    public ProblemResponse retryAfter(long seconds) {
        this.retryAfterSeconds = seconds;
        return with("retryAfter", seconds);
    }

    /** Adds a response header the limiter chose (never one copied from the request). */
    public ProblemResponse header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** Replaces whatever the response held with this problem, then commits it. */
    public void writeTo(HttpServletResponse response) throws IOException {
        response.reset();
        write(response, r -> { });
    }

    /**
     * Writes this problem over the response's buffer but keeps the headers already set (the security headers of
     * the filter chain, say), letting {@code moreHeaders} add the caller's own before the body; then commits it.
     */
    public void writeKeepingHeaders(HttpServletResponse response, Consumer<HttpServletResponse> moreHeaders)
            throws IOException {
        response.resetBuffer();
        write(response, moreHeaders);
    }

    private void write(HttpServletResponse response, Consumer<HttpServletResponse> moreHeaders) throws IOException {
        response.setStatus(status);
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("CDN-Cache-Control", "no-store");
        headers.forEach(response::setHeader);
        if (retryAfterSeconds != null) {
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
        }
        moreHeaders.accept(response);
        byte[] body = json().getBytes(StandardCharsets.UTF_8);
        response.setContentType(PROBLEM_JSON);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }

    String json() {
        StringBuilder out = new StringBuilder("{\"type\":");
        quote(type, out);
        out.append(",\"title\":");
        quote(title, out);
        out.append(",\"status\":").append(status);
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            out.append(',');
            quote(field.getKey(), out);
            out.append(':');
            Object value = field.getValue();
            if (value instanceof Number) {
                out.append(value);
            }
            else if (value instanceof List<?> list) {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    quote(String.valueOf(list.get(i)), out);
                }
                out.append(']');
            }
            else {
                quote(String.valueOf(value), out);
            }
        }
        return out.append('}').toString();
    }

    private static void quote(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            }
            else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            }
            else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
