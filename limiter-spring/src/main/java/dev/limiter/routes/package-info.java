/**
 * Route resolution, all of it: the {@code limiter.routes} rules
 * ({@link dev.limiter.routes.PropertiesRouteResolver}), the annotations on Spring MVC
 * handlers ({@link dev.limiter.routes.HandlerPolicies}), the one handler lookup per
 * request handed to the dispatcher ({@link dev.limiter.routes.HandlerRouteResolver},
 * {@link dev.limiter.routes.ResolvedHandlerMapping}), Spring MVC's CORS configuration of
 * a request found with the same lookup
 * ({@link dev.limiter.routes.HandlerCorsConfigurations}) and the start-up inventory of
 * every handler ({@link dev.limiter.routes.RouteInventoryCheck}). Every policy is the
 * public {@link dev.limiter.spring.RoutePolicy}.
 *
 * <p>
 * Internal: replace route resolution with a {@link dev.limiter.spring.RouteResolver}
 * bean; the inventory is read at {@code /actuator/limiter} and in the start-up log.
 */
package dev.limiter.routes;
