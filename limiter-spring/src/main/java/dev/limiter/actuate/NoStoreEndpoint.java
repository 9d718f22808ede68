package dev.limiter.actuate;

import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Which responses are the {@code limiter} endpoint's, to be marked {@code no-store} for
 * browsers and CDNs, its 400s included: they describe one caller's counters at one
 * instant. An endpoint operation cannot set headers itself, so each web stack's filter
 * ({@link NoStoreEndpointFilter} on a servlet application, a {@code WebFilter} on a
 * reactive one) sets them before the endpoint runs.
 */
public final class NoStoreEndpoint {

	private final Supplier<String> endpointPath;

	/**
	 * The path once known: endpoints are mapped once, and asking for the mapping on every
	 * request showed up in the request path's CPU profile.
	 */
	private volatile String resolvedPath;

	/**
	 * {@code endpointPath} gives the endpoint's path below the context path, such as
	 * {@code /actuator/limiter}; {@code null} while the endpoint is not mapped.
	 */
	public NoStoreEndpoint(Supplier<String> endpointPath) {
		this.endpointPath = endpointPath;
	}

	/**
	 * Whether the request path {@code uri}, from index {@code start} on (past the context
	 * path), is the endpoint's path or below it; read without copying the URI.
	 */
	public boolean covers(String uri, int start) {
		String path = path();
		if (path == null) {
			return false;
		}
		int end = start + path.length();
		return uri.startsWith(path, start) && (uri.length() == end || uri.charAt(end) == '/');
	}

	/** Sets the headers that keep a browser and a CDN from storing the response. */
	public static void markNoStore(BiConsumer<String, String> header) {
		header.accept("Cache-Control", "no-store");
		header.accept("CDN-Cache-Control", "no-store");
	}

	private String path() {
		String path = resolvedPath;
		if (path == null) {
			path = endpointPath.get();
			resolvedPath = path;
		}
		return path;
	}

}
