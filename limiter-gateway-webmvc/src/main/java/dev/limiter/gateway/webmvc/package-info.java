/**
 * limiter on Spring Cloud Gateway's Server Web MVC: the {@code Limiter} route filter
 * ({@link dev.limiter.gateway.webmvc.LimiterFilterFunctions}, public API: the filter, its
 * route attributes and its filter supplier), the gateway's routes named for the servlet
 * filter's route resolver ({@link dev.limiter.gateway.webmvc.LimitedRouterFunction}) and
 * the settlement of a downstream response's usage report
 * ({@link dev.limiter.gateway.webmvc.UsageReports}). Nothing here names Spring Boot; the
 * wiring is in {@code dev.limiter.gateway.webmvc.autoconfigure}. Everything but
 * {@code LimiterFilterFunctions} is internal.
 */
package dev.limiter.gateway.webmvc;
