package dev.limiter.routes;

import java.util.List;

import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.MappingMatch;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.mock.web.MockHttpServletMapping;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.UrlPathHelper;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules match {@code UrlPathHelper}'s path within the application, whichever way it
 * is obtained: parsed again, or the handler mappings' own parse when that reads the same.
 */
class PropertiesRouteResolverTests {

	private static final List<String> PATTERNS = List.of("/s/recall", "/s/**", "/links/{id}", "/", "/**", "/a/b",
			"/a/*/c", "/api/**", "/x;y");

	private static final List<String> URIS = List.of("/s/recall", "/s//recall", "//s/recall", "/s/recall/",
			"/s/re%63all", "/s%2Frecall", "/s/recall;jsessionid=1", "/s;x=1/recall", "/links/42", "/a/b", "/a/x/c", "/",
			"/A/B", "/s/./recall", "/s/../s/recall", "/s/recall%20", "/s/rec%2Fall", "/a%2F%2Fb");

	private final PropertiesRouteResolver rules = new PropertiesRouteResolver(
			List.of(new RouteRule("/s/recall", List.of("POST"), new RoutePolicy("/s/recall", null, true, false, null)),
					new RouteRule("/s/**", List.of(), new RoutePolicy("/s/**", "anonymous", false, false, null))));

	@Test
	void pathWhenTheMappingsParsedItShouldMatchEveryPatternAsUrlPathHelpersPathDoes() {
		for (String context : List.of("", "/app")) {
			for (String uri : URIS) {
				MockHttpServletRequest request = request(context, context + uri);
				assertSameMatches(request, ServletRequestPathUtils.parseAndCache(request));
			}
		}
		MockHttpServletRequest root = request("/app", "/app");
		assertSameMatches(root, ServletRequestPathUtils.parseAndCache(root));
	}

	@Test
	void pathWhenTheDispatcherIsMappedToAPrefixShouldStillMatchTheWholePathWithinTheApplication() {
		for (String uri : URIS) {
			MockHttpServletRequest request = request("", "/api" + uri);
			request.setServletPath("/api");
			request.setHttpServletMapping(new MockHttpServletMapping("", "/api/*", "dispatcher", MappingMatch.PATH));
			RequestPath parsed = ServletRequestPathUtils.parseAndCache(request);
			assertSameMatches(request, parsed);
			assertThat(PropertiesRouteResolver.pathWithinApplication(request, parsed).value()).startsWith("/api");
		}
	}

	@Test
	void pathWhenTheRawPathIsPlainShouldBeTheMappingsOwnParse() {
		MockHttpServletRequest request = request("/app", "/app/s/recall");
		RequestPath parsed = ServletRequestPathUtils.parseAndCache(request);
		assertThat(PropertiesRouteResolver.pathWithinApplication(request, parsed))
			.isSameAs(parsed.pathWithinApplication());
	}

	@Test
	void pathWhenTheRawPathNeedsCleaningShouldBeParsedAgain() {
		// the last: the context's root, "/" to UrlPathHelper and empty to the mappings
		for (String uri : List.of("/s//recall", "/s/re%63all", "/s/recall;jsessionid=1", "/app")) {
			MockHttpServletRequest request = request(uri.equals("/app") ? "/app" : "", uri);
			RequestPath parsed = ServletRequestPathUtils.parseAndCache(request);
			assertThat(PropertiesRouteResolver.pathWithinApplication(request, parsed)).as(uri)
				.isNotSameAs(parsed.pathWithinApplication());
		}
	}

	@Test
	void pathWhenTheRequestIsAnErrorDispatchShouldBeParsedAgain() {
		MockHttpServletRequest request = request("", "/s/recall");
		request.setDispatcherType(DispatcherType.ERROR);
		RequestPath parsed = ServletRequestPathUtils.parseAndCache(request);
		assertThat(PropertiesRouteResolver.pathWithinApplication(request, parsed))
			.isNotSameAs(parsed.pathWithinApplication());
	}

	@Test
	void matchWhenTheMappingsParsedThePathShouldPickTheSameRuleAsWithout() {
		for (String uri : URIS) {
			for (String method : List.of("GET", "POST")) {
				MockHttpServletRequest request = request("", uri);
				request.setMethod(method);
				RequestPath parsed = ServletRequestPathUtils.parseAndCache(request);
				assertThat(rules.match(request, parsed)).as(method + " " + uri).isEqualTo(rules.match(request));
			}
		}
		MockHttpServletRequest doubled = request("", "/s//recall");
		doubled.setMethod("POST");
		assertThat(rules.match(doubled, ServletRequestPathUtils.parseAndCache(doubled)).expensive())
			.as("a doubled slash does not get past the rule")
			.isTrue();
	}

	private static void assertSameMatches(MockHttpServletRequest request, RequestPath parsed) {
		PathContainer slow = PathContainer.parsePath(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
		PathContainer used = PropertiesRouteResolver.pathWithinApplication(request, parsed);
		for (String pattern : PATTERNS) {
			PathPattern parsedPattern = PathPatternParser.defaultInstance.parse(pattern);
			assertThat(parsedPattern.matches(used)).as(pattern + " on " + request.getRequestURI())
				.isEqualTo(parsedPattern.matches(slow));
		}
	}

	private static MockHttpServletRequest request(String contextPath, String uri) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		return request;
	}

}
