package dev.limiter.servlet;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The directive scan reads header values in place instead of splitting and lower-casing
 * them; it must decide every response exactly as the splitting reading it replaced.
 */
class SharedCacheabilityTests {

	private static final List<String> PIECES = List.of("no-store", "NO-STORE", "private", "Private", "public",
			"s-maxage", "S-MaxAge", "must-revalidate", "max-age", "Max-Age", "no-cache", "=", "60", ",", " ", "\t", ";",
			"x", "max-ages", "\u0131", "\u017f");

	@Test
	void directivesShouldReadNamesWithoutCaseAroundSpacesAndValues() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.addHeader("Cache-Control", " Max-Age = 60 ,PUBLIC");
		response.addHeader("Cache-Control", "s-maxage=5");
		assertThat(SharedCacheability.directives(response, "Cache-Control")).isEqualTo(SharedCacheability.ANY
				| SharedCacheability.MAX_AGE | SharedCacheability.PUBLIC | SharedCacheability.S_MAXAGE);
	}

	@Test
	void directivesWhenOnlySeparatorsShouldFindNone() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.addHeader("CDN-Cache-Control", " , ,=x");
		assertThat(SharedCacheability.directives(response, "CDN-Cache-Control")).isZero();
	}

	@Test
	void directivesWhenNonAsciiLooksLikeANameShouldNotMatchIt() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.addHeader("Cache-Control", "pr\u0131vate, no-\u017ftore");
		assertThat(SharedCacheability.directives(response, "Cache-Control")).isEqualTo(SharedCacheability.ANY);
	}

	@Property(tries = 2000)
	void isSharedCacheableShouldDecideAsTheSplittingReading(@ForAll("headerValues") List<String> cacheControl,
			@ForAll("headerValues") List<String> cdn, @ForAll("headerValues") List<String> surrogate,
			@ForAll boolean authorization, @ForAll boolean expires) {
		MockHttpServletRequest request = new MockHttpServletRequest();
		if (authorization) {
			request.addHeader("Authorization", "Bearer x");
		}
		MockHttpServletResponse response = new MockHttpServletResponse();
		cacheControl.forEach(value -> response.addHeader("Cache-Control", value));
		cdn.forEach(value -> response.addHeader("CDN-Cache-Control", value));
		surrogate.forEach(value -> response.addHeader("Surrogate-Control", value));
		if (expires) {
			response.addHeader("Expires", "Thu, 01 Jan 2099 00:00:00 GMT");
		}
		assertThat(SharedCacheability.isSharedCacheable(request, response))
			.isEqualTo(SplittingReading.isSharedCacheable(request, response));
	}

	@Provide
	Arbitrary<List<String>> headerValues() {
		Arbitrary<String> value = Arbitraries.of(PIECES).list().ofMaxSize(8).map(pieces -> String.join("", pieces));
		return value.list().ofMaxSize(2);
	}

	/** The reading this class had before the in-place scan. */
	private static final class SplittingReading {

		static boolean isSharedCacheable(MockHttpServletRequest request, MockHttpServletResponse response) {
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

		private static Set<String> directives(MockHttpServletResponse response, String header) {
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

}
