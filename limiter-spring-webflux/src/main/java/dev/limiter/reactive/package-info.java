/**
 * The limiter in a Spring WebFlux application:
 * {@link dev.limiter.reactive.ReactiveRateLimitFilter} (a {@code WebFilter}, a thin
 * adapter over {@code dev.limiter.decision}, which the servlet filter shares) and its
 * parts: who a request is counted as ({@link dev.limiter.reactive.ReactiveKeyResolver},
 * by default from the {@code Authentication} in reactive Spring Security's context),
 * which route policy applies ({@link dev.limiter.reactive.ReactiveRouteResolver}:
 * {@code limiter.routes}, then the annotations of the handler WebFlux's mappings find),
 * and what a handler reports of the units it used
 * ({@link dev.limiter.reactive.ReactiveRateLimitUsage}), and which requests a filter
 * further on counts instead ({@link dev.limiter.reactive.ReactiveCountedFurtherOn}: a
 * Spring Cloud Gateway route's {@code Limiter}). Nothing here needs the Servlet API,
 * Tomcat or Spring MVC.
 */
package dev.limiter.reactive;
