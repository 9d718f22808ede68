package dev.limiter.routes;

import java.util.List;

import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.io.Resource;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;

/**
 * The built-in policy of what is not the application's API: the files Spring's resource
 * handlers serve ({@link ResourceHttpRequestHandler}: the static locations, webjars, the
 * favicon, Swagger UI's files) and springdoc's own endpoints ({@code /v3/api-docs/**},
 * {@code /swagger-ui.html}). Exempt, unless {@code limiter.count-static-resources} is
 * {@code true}: then they fall to the default budget. A rule or an annotation still
 * decides first.
 *
 * <p>
 * A request a resource handler matches is exempt only when it reads ({@code GET},
 * {@code HEAD}) a file that exists: any path matches the catch-all {@code /**} handler,
 * and a path that finds no file is a 404, counted like any other so that a scan gains
 * nothing. The file is looked up with the handler's own locations and resolvers, so an
 * exempt file is looked up twice (once here, once by the handler).
 */
final class StaticResources {

	static final String STATIC_REASON = "static resource; limiter.count-static-resources=false";

	static final String API_DOCUMENTATION_REASON = "API documentation; limiter.count-static-resources=false";

	private static final RoutePolicy STATIC_EXEMPT = new RoutePolicy(null, null, false, true, STATIC_REASON);

	private static final RoutePolicy API_DOCUMENTATION_EXEMPT = new RoutePolicy(null, null, false, true,
			API_DOCUMENTATION_REASON);

	private final boolean counted;

	StaticResources(boolean counted) {
		this.counted = counted;
	}

	/** Whether a handler's bean is one of springdoc's own endpoints. */
	static boolean isApiDocumentation(Class<?> beanType) {
		return beanType.getName().startsWith("org.springdoc.");
	}

	/** The policy of springdoc's endpoints. */
	RoutePolicy apiDocumentationPolicy() {
		return counted ? RoutePolicy.DEFAULT : API_DOCUMENTATION_EXEMPT;
	}

	/** The policy the inventory lists for a resource handler's pattern. */
	RoutePolicy resourcePolicy() {
		return counted ? RoutePolicy.DEFAULT : STATIC_EXEMPT;
	}

	/**
	 * The policy of one request a resource handler matched.
	 * @param pathWithinMapping the path the handler will look up
	 * ({@code HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE})
	 */
	RoutePolicy policyFor(ResourceHttpRequestHandler handler, HttpServletRequest request, String pathWithinMapping) {
		if (counted || !reads(request) || !plain(pathWithinMapping)) {
			return RoutePolicy.DEFAULT;
		}
		return exists(handler, request, pathWithinMapping) ? STATIC_EXEMPT : RoutePolicy.DEFAULT;
	}

	private static boolean reads(HttpServletRequest request) {
		return "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
	}

	/**
	 * A path with nothing for the handler to clean or refuse: anything else is counted,
	 * whatever the handler then answers.
	 */
	private static boolean plain(String path) {
		return path != null && !path.isEmpty() && !path.contains("..") && !path.contains("%") && !path.contains("\\")
				&& !path.contains(":") && !path.contains("//") && !path.contains("WEB-INF")
				&& !path.contains("META-INF");
	}

	private static boolean exists(ResourceHttpRequestHandler handler, HttpServletRequest request, String path) {
		try {
			String relative = path.startsWith("/") ? path.substring(1) : path;
			Resource resource = new Chain(handler.getResourceResolvers(), 0).resolveResource(request, relative,
					handler.getLocations());
			return resource != null && resource.isReadable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** The handler's resolvers in order, as its own chain calls them. */
	private record Chain(List<ResourceResolver> resolvers, int next) implements ResourceResolverChain {

		@Override
		public Resource resolveResource(HttpServletRequest request, String requestPath,
				List<? extends Resource> locations) {
			return (next < resolvers.size()) ? resolvers.get(next)
				.resolveResource(request, requestPath, locations, new Chain(resolvers, next + 1)) : null;
		}

		@Override
		public String resolveUrlPath(String resourcePath, List<? extends Resource> locations) {
			return (next < resolvers.size())
					? resolvers.get(next).resolveUrlPath(resourcePath, locations, new Chain(resolvers, next + 1))
					: null;
		}

	}

}
