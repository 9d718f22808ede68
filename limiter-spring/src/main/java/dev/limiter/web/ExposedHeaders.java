package dev.limiter.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The limiter's headers made readable by a script of an origin the application allows:
 * {@code Access-Control-Expose-Headers} as the application wrote it, then each of the
 * limiter's headers not yet named, each name once.
 */
public final class ExposedHeaders {

	private static final List<String> LIMITER_HEADERS = RateLimitHeader.names();

	private ExposedHeaders() {
	}

	/**
	 * The value of {@code Access-Control-Expose-Headers}.
	 * @param exposed the values the response already carries under that name
	 */
	public static String value(Collection<String> exposed) {
		List<String> names = new ArrayList<>();
		Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
		for (String value : exposed) {
			for (String name : value.split(",")) {
				String trimmed = name.trim();
				if (!trimmed.isEmpty() && seen.add(trimmed)) {
					names.add(trimmed);
				}
			}
		}
		for (String name : LIMITER_HEADERS) {
			if (seen.add(name)) {
				names.add(name);
			}
		}
		return String.join(", ", names);
	}

}
