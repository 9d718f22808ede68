package dev.limiter.servlet;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Whether a response may be kept by a shared cache, which would serve its per-caller
 * counters to other callers.
 */
final class SharedCacheability {

	private SharedCacheability() {
	}

	/**
	 * Whether a shared cache may store the response (RFC 9111 section 3 and 3.5): then it
	 * may serve it to other callers, and per-caller counters would leak to them.
	 * {@code CDN-Cache-Control} (RFC 9213) and {@code Surrogate-Control} address the CDN
	 * directly and count unless they say {@code no-store} or {@code private}. Otherwise
	 * {@code no-store} and {@code private} forbid it; {@code public} and {@code s-maxage}
	 * allow it; a request with {@code Authorization} may also be stored under
	 * {@code must-revalidate}, and one without under {@code max-age} or an
	 * {@code Expires} header.
	 */
	static boolean isSharedCacheable(HttpServletRequest request, HttpServletResponse response) {
		for (String targeted : List.of("CDN-Cache-Control", "Surrogate-Control")) {
			Set<String> directives = directives(response, targeted);
			if (!directives.isEmpty() && !directives.contains("no-store") && !directives.contains("private")) {
				return true;
			}
		}
		Set<String> cacheControl = directives(response, "Cache-Control");
		if (cacheControl.contains("no-store") || cacheControl.contains("private")) {
			return false;
		}
		if (cacheControl.contains("public") || cacheControl.contains("s-maxage")) {
			return true;
		}
		if (request.getHeader("Authorization") != null) {
			return cacheControl.contains("must-revalidate");
		}
		return cacheControl.contains("max-age") || response.getHeader("Expires") != null;
	}

	private static Set<String> directives(HttpServletResponse response, String header) {
		Set<String> names = new HashSet<>();
		for (String value : response.getHeaders(header)) {
			for (String directive : value.split(",")) {
				String name = directive.trim().toLowerCase(Locale.ROOT);
				int eq = name.indexOf('=');
				if (eq >= 0) {
					name = name.substring(0, eq).trim();
				}
				if (!name.isEmpty()) {
					names.add(name);
				}
			}
		}
		return names;
	}

}
