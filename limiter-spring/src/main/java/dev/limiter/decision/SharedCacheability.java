package dev.limiter.decision;

import java.util.Collection;
import java.util.function.Function;

/**
 * Whether a response may be kept by a shared cache, which would serve its per-caller
 * counters to other callers.
 */
public final class SharedCacheability {

	private static final String[] TARGETED = { "CDN-Cache-Control", "Surrogate-Control" };

	/** The directives read, in the order of their bits (from 2). */
	private static final String[] NAMES = { "no-store", "private", "public", "s-maxage", "must-revalidate", "max-age" };

	public static final int ANY = 1;

	public static final int NO_STORE = 1 << 1;

	public static final int PRIVATE = 1 << 2;

	public static final int PUBLIC = 1 << 3;

	public static final int S_MAXAGE = 1 << 4;

	public static final int MUST_REVALIDATE = 1 << 5;

	public static final int MAX_AGE = 1 << 6;

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
	 * @param authorization whether the request carried {@code Authorization}
	 * @param response the values of a response header by name, empty when it has none
	 */
	public static boolean isSharedCacheable(boolean authorization, Function<String, Collection<String>> response) {
		for (String targeted : TARGETED) {
			int directives = directives(response, targeted);
			if (directives != 0 && (directives & (NO_STORE | PRIVATE)) == 0) {
				return true;
			}
		}
		int cacheControl = directives(response, "Cache-Control");
		if ((cacheControl & (NO_STORE | PRIVATE)) != 0) {
			return false;
		}
		if ((cacheControl & (PUBLIC | S_MAXAGE)) != 0) {
			return true;
		}
		if (authorization) {
			return (cacheControl & MUST_REVALIDATE) != 0;
		}
		return (cacheControl & MAX_AGE) != 0 || !response.apply("Expires").isEmpty();
	}

	/**
	 * The directives of every {@code header} of the response that this class reads, as
	 * bits, with {@link #ANY} set when there is any directive at all: a directive's name
	 * is what precedes its {@code =}, trimmed, compared without case. Read without
	 * copying the values: it runs before the commit of every counted response.
	 */
	public static int directives(Function<String, Collection<String>> response, String header) {
		int found = 0;
		for (String value : response.apply(header)) {
			int start = 0;
			while (start <= value.length()) {
				int comma = value.indexOf(',', start);
				int end = (comma >= 0) ? comma : value.length();
				found |= directive(value, start, end);
				start = end + 1;
			}
		}
		return found;
	}

	private static int directive(String value, int start, int end) {
		int eq = value.indexOf('=', start);
		if (eq >= 0 && eq < end) {
			end = eq;
		}
		while (start < end && value.charAt(start) <= ' ') {
			start++;
		}
		while (end > start && value.charAt(end - 1) <= ' ') {
			end--;
		}
		if (start == end) {
			return 0;
		}
		for (int i = 0; i < NAMES.length; i++) {
			if (isNamed(value, start, end, NAMES[i])) {
				return ANY | (1 << (i + 1));
			}
		}
		return ANY;
	}

	/**
	 * Lower-cases A-Z only: every name looked for is ASCII, as {@code toLowerCase} would
	 * match.
	 */
	private static boolean isNamed(String value, int start, int end, String name) {
		if (end - start != name.length()) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = value.charAt(start + i);
			if (c >= 'A' && c <= 'Z') {
				c = (char) (c + ('a' - 'A'));
			}
			if (c != name.charAt(i)) {
				return false;
			}
		}
		return true;
	}

}
