package dev.limiter.spring;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Maps a request to its {@link RoutePolicy}. The default reads {@code limiter.routes}
 * (first match wins) and falls to {@link RoutePolicy#DEFAULT}; never to "unlimited".
 * Define a bean of this type to replace it.
 */
@FunctionalInterface
public interface RouteResolver {

	RoutePolicy resolve(HttpServletRequest request);

}
