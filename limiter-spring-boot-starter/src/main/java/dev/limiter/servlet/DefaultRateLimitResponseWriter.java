package dev.limiter.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.StringJoiner;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Decision;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.spring.RateLimitResponseWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * DESIGN §6 on the wire: {@code X-RateLimit-*} for the binding window, the IETF {@code RateLimit-Policy} and
 * {@code RateLimit} fields (draft-ietf-httpapi-ratelimit-headers), and a 429 with {@code Retry-After} and an
 * RFC 9457 problem body. Everything the limiter produces itself is {@code no-store}.
 */
public class DefaultRateLimitResponseWriter implements RateLimitResponseWriter {

    public static final String PROBLEM_JSON = "application/problem+json";
    public static final String ERROR_CODE = "rate_limit_exceeded";

    private final boolean xRateLimitHeaders;
    private final boolean ietfHeaders;

    public DefaultRateLimitResponseWriter(boolean xRateLimitHeaders, boolean ietfHeaders) {
        this.xRateLimitHeaders = xRateLimitHeaders;
        this.ietfHeaders = ietfHeaders;
    }

    @Override
    public void writeCounters(HttpServletResponse response, Decision decision) {
        writeCounters(response, decision, decision.bindingWindow());
    }

    private void writeCounters(HttpServletResponse response, Decision decision, BoundVerdict shown) {
        long now = decision.decidedAtMillis();
        if (xRateLimitHeaders) {
            response.setHeader("X-RateLimit-Limit", Long.toString(shown.limit()));
            response.setHeader("X-RateLimit-Remaining", Long.toString(shown.remaining()));
            response.setHeader("X-RateLimit-Reset", Long.toString(ceilSeconds(shown.resetAtMillis())));
            response.setHeader("X-RateLimit-Window", Long.toString(atLeastOneSecond(shown.periodMillis())));
        }
        if (ietfHeaders) {
            StringJoiner policy = new StringJoiner(", ");
            for (BoundVerdict verdict : decision.verdicts()) {
                if (!verdict.concurrency()) {
                    policy.add("\"" + verdict.name() + "\";q=" + verdict.limit() + ";w="
                            + atLeastOneSecond(verdict.periodMillis()));
                }
            }
            response.setHeader("RateLimit-Policy", policy.toString());
            response.setHeader("RateLimit", "\"" + shown.name() + "\";r=" + shown.remaining() + ";t="
                    + ceilSeconds(shown.waitMillis(now)));
        }
        if (decision.degraded()) {
            response.setHeader("X-RateLimit-Degraded", "true");
        }
    }

    @Override
    public void writeRefusal(HttpServletRequest request, HttpServletResponse response, Decision decision)
            throws IOException {
        BoundVerdict refusing = decision.refusingBound().orElseThrow(
                () -> new IllegalArgumentException("not a refusal: " + decision));
        long retryAfter = decision.retryAfterSeconds();
        response.resetBuffer();
        response.setStatus(429);
        writeNoStore(response);
        response.setHeader("Retry-After", Long.toString(retryAfter));
        writeCounters(response, decision, refusing.concurrency() ? decision.bindingWindow() : refusing);
        String message = refusing.concurrency()
                ? "Budget '" + decision.budget() + "' allows " + refusing.limit()
                        + " expensive requests in flight at once; retry after " + retryAfter + " seconds."
                : "Budget '" + decision.budget() + "' allows " + refusing.limit() + " requests per "
                        + refusing.name() + "; retry after " + retryAfter + " seconds.";
        String body = "{"
                + "\"type\":\"about:blank\","
                + "\"title\":\"Too Many Requests\","
                + "\"status\":429,"
                + "\"detail\":" + quote(message) + ","
                + "\"error\":\"" + ERROR_CODE + "\","
                + "\"message\":" + quote(message) + ","
                + "\"retryAfter\":" + retryAfter + ","
                + "\"limit\":" + refusing.limit() + ","
                + "\"remaining\":" + refusing.remaining() + ","
                + "\"resetTime\":\"" + Instant.ofEpochSecond(ceilSeconds(refusing.resetAtMillis())) + "\","
                + "\"budget\":" + quote(decision.budget()) + ","
                + "\"bound\":" + quote(refusing.name())
                + violatedPolicies(decision)
                + "}";
        writeProblem(response, body);
    }

    @Override
    public void writeUnavailable(HttpServletRequest request, HttpServletResponse response,
                                 StoreUnavailableException failure) throws IOException {
        long retryAfter = failure.retryAfterSeconds();
        response.resetBuffer();
        response.setStatus(503);
        writeNoStore(response);
        response.setHeader("Retry-After", Long.toString(retryAfter));
        String message = "Budget '" + failure.budget() + "' refuses requests while the rate-limit store cannot "
                + "answer; retry after " + retryAfter + " seconds.";
        String body = "{"
                + "\"type\":\"about:blank\","
                + "\"title\":\"Service Unavailable\","
                + "\"status\":503,"
                + "\"detail\":" + quote(message) + ","
                + "\"error\":\"rate_limit_store_unavailable\","
                + "\"message\":" + quote(message) + ","
                + "\"retryAfter\":" + retryAfter + ","
                + "\"budget\":" + quote(failure.budget())
                + "}";
        writeProblem(response, body);
    }

    /**
     * With the IETF fields on: the {@code violated-policies} member of draft-ietf-httpapi-ratelimit-headers, the
     * names of the refusing windows as they appear in {@code RateLimit-Policy}; nothing for a concurrency refusal.
     */
    private String violatedPolicies(Decision decision) {
        if (!ietfHeaders) {
            return "";
        }
        StringJoiner names = new StringJoiner(",", ",\"violated-policies\":[", "]");
        names.setEmptyValue("");
        for (BoundVerdict verdict : decision.verdicts()) {
            if (verdict.refused() && !verdict.concurrency()) {
                names.add(quote(verdict.name()));
            }
        }
        return names.toString();
    }

    private static void writeProblem(HttpServletResponse response, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setContentType(PROBLEM_JSON);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.flushBuffer();
    }

    /** Marks a response the limiter produced itself so that no cache, shared or private, keeps it. */
    public static void writeNoStore(HttpServletResponse response) {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("CDN-Cache-Control", "no-store");
    }

    static long ceilSeconds(long millis) {
        return Math.floorDiv(millis + 999, 1000);
    }

    private static long atLeastOneSecond(long millis) {
        return Math.max(1, ceilSeconds(millis));
    }

    /** JSON string literal; budget and bound names are a safe alphabet already, this is for the message. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
