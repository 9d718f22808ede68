package dev.limiter.servlet;

import java.security.Principal;

import dev.limiter.core.Budget;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;

/**
 * What a {@link DecisionInstrumentation} is told of a request before its decision.
 *
 * @param request the request
 * @param route the route policy that applies (its pattern masked, never the raw path)
 * @param budget the budget the request is counted against
 * @param key the caller's key in that budget, as the {@code limiter} endpoint's key
 * lookup takes it ({@code t:} + a hash, {@code p:} + a hash, {@code a:} + an address);
 * never a token
 * @param principal the authenticated principal, {@code null} when there is none
 * @param store the store's name ({@code memory}, {@code redis}, ...)
 */
public record DecisionFacts(HttpServletRequest request, RoutePolicy route, Budget budget, String key,
		Principal principal, String store) {
}
