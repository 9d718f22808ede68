package dev.limiter.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

/** RFC 9457 problem responses of the sample's own authentication. */
final class Problems {

    private Problems() {
    }

    static void forbidden(HttpServletResponse response, String detail) throws IOException {
        response.setStatus(403);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,"
                + "\"detail\":\"" + detail + "\"}");
    }

    static void unauthorized(HttpServletResponse response, String error, String detail) throws IOException {
        response.setStatus(401);
        response.setHeader("WWW-Authenticate", "Bearer error=\"" + error + "\"");
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/problem+json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,"
                + "\"error\":\"" + error + "\",\"detail\":\"" + detail + "\"}");
    }
}
