package dev.limiter.actuate;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

class NoStoreEndpointFilterTests {

	private final AtomicInteger lookups = new AtomicInteger();

	private final NoStoreEndpointFilter filter = new NoStoreEndpointFilter(() -> {
		lookups.incrementAndGet();
		return "/actuator/limiter";
	});

	@Test
	void filterWhenPathIsTheEndpointOrBelowShouldMarkNoStore() throws Exception {
		assertThat(cacheControl("", "/actuator/limiter")).isEqualTo("no-store");
		assertThat(cacheControl("", "/actuator/limiter/keys/abc")).isEqualTo("no-store");
	}

	@Test
	void filterWhenPathOnlySharesThePrefixShouldLeaveTheResponseAlone() throws Exception {
		assertThat(cacheControl("", "/actuator/limiterx")).isNull();
		assertThat(cacheControl("", "/actuator/limit")).isNull();
		assertThat(cacheControl("", "/s/agents.md")).isNull();
	}

	@Test
	void filterWhenAppHasAContextPathShouldMatchBelowIt() throws Exception {
		assertThat(cacheControl("/app", "/app/actuator/limiter/keys/abc")).isEqualTo("no-store");
		assertThat(cacheControl("/app", "/actuator/limiter")).isNull();
	}

	@Test
	void filterWhenManyRequestsPassShouldLookTheEndpointPathUpOnce() throws Exception {
		for (int i = 0; i < 5; i++) {
			cacheControl("", "/s/agents.md");
		}
		assertThat(lookups).hasValue(1);
	}

	@Test
	void filterWhenEndpointIsNotMappedShouldMarkNothing() throws Exception {
		NoStoreEndpointFilter unmapped = new NoStoreEndpointFilter(() -> null);
		MockHttpServletRequest request = request("", "/actuator/limiter");
		MockHttpServletResponse response = new MockHttpServletResponse();
		unmapped.doFilter(request, response, new MockFilterChain());
		assertThat(response.getHeader("Cache-Control")).isNull();
	}

	@Test
	void filterWhenOneRequestPassesTwiceShouldLeaveOneValueOfEachHeader() throws Exception {
		MockHttpServletRequest request = request("", "/actuator/limiter/keys/abc");
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, new MockFilterChain());
		filter.doFilter(request, response, new MockFilterChain());
		assertThat(response.getHeaders("Cache-Control")).containsExactly("no-store");
		assertThat(response.getHeaders("CDN-Cache-Control")).containsExactly("no-store");
	}

	private String cacheControl(String contextPath, String uri) throws Exception {
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request(contextPath, uri), response, new MockFilterChain());
		return response.getHeader("Cache-Control");
	}

	private static MockHttpServletRequest request(String contextPath, String uri) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		return request;
	}

}
