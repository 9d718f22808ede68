package dev.limiter.routes;

import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Hands the {@code DispatcherServlet} the handler the limiter already found for this
 * request, so that a request costs one handler-mapping pass, not two. First in the
 * dispatcher's order; answers only the request the lookup was made for (same method and
 * URI, the original dispatch) and only once, else {@code null} and the dispatcher asks
 * the application's mappings as usual. Only lookups answered by a
 * {@code RequestMappingInfoHandlerMapping} are handed over: what they leave on the
 * request is the {@link HandlerMapping} attributes, copied here.
 */
public class ResolvedHandlerMapping implements HandlerMapping, Ordered {

	static final String ATTRIBUTE = ResolvedHandlerMapping.class.getName() + ".RESOLVED";

	@Override
	public HandlerExecutionChain getHandler(HttpServletRequest request) {
		if (!(request.getAttribute(ATTRIBUTE) instanceof Resolved resolved)) {
			return null;
		}
		request.removeAttribute(ATTRIBUTE);
		if (request.getDispatcherType() != DispatcherType.REQUEST || !resolved.method().equals(request.getMethod())
				|| !resolved.uri().equals(request.getRequestURI())) {
			return null;
		}
		resolved.attributes().forEach(request::setAttribute);
		return resolved.chain();
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/** What one lookup found, with the attributes the mapping set while finding it. */
	record Resolved(String method, String uri, HandlerExecutionChain chain, Map<String, Object> attributes) {
	}

}
