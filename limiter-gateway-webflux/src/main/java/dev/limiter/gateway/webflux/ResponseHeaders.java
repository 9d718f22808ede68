package dev.limiter.gateway.webflux;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

import org.springframework.http.HttpHeaders;

/**
 * Takes one header off a response, on Spring Framework 6 and 7 alike: 6's
 * {@link HttpHeaders} is a {@code Map} ({@code remove(Object)}), 7's is not
 * ({@code remove(String)}), and this jar, compiled against 6, runs on both (Boot 3.5 and
 * Boot 4). The values are read with {@code getValuesAsList}, the same method on both.
 */
final class ResponseHeaders {

	private static final MethodHandle REMOVE = remove();

	private ResponseHeaders() {
	}

	/** The header's values (empty when absent), then removed. */
	static List<String> take(HttpHeaders headers, String name) {
		List<String> values = headers.getValuesAsList(name);
		if (!values.isEmpty()) {
			try {
				REMOVE.invoke(headers, name);
			}
			catch (RuntimeException | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new IllegalStateException(ex);
			}
		}
		return values;
	}

	private static MethodHandle remove() {
		MethodHandles.Lookup lookup = MethodHandles.publicLookup();
		try {
			return lookup.findVirtual(HttpHeaders.class, "remove", MethodType.methodType(List.class, String.class))
				.asType(MethodType.methodType(void.class, HttpHeaders.class, String.class));
		}
		catch (NoSuchMethodException | IllegalAccessException onFramework6) {
			try {
				return lookup.findVirtual(HttpHeaders.class, "remove", MethodType.methodType(List.class, Object.class))
					.asType(MethodType.methodType(void.class, HttpHeaders.class, String.class));
			}
			catch (NoSuchMethodException | IllegalAccessException ex) {
				throw new IllegalStateException("HttpHeaders has no remove method", ex);
			}
		}
	}

}
