/**
 * limiter on Spring Cloud Gateway's Server Web MVC: the {@code Limiter} route filter
 * ({@link dev.limiter.gateway.webmvc.LimiterFilterFunctions}, public API: the filter, its
 * route attributes and its filter supplier), the gateway's routes named for the servlet
 * filter's route resolver, and the settlement of a downstream response's usage report.
 * Everything else here is internal.
 */
package dev.limiter.gateway.webmvc;
