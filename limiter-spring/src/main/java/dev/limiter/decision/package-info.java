/**
 * What the limiter decides about one request, whichever web stack carries it: the store
 * call and its last resort ({@link dev.limiter.decision.StoreDecisions}, synchronous for
 * the servlet filter, {@code takeAsync} for the reactive one), who the caller is counted
 * as ({@link dev.limiter.decision.CallerKeys}), the route-scoped counter key, the headers
 * and problem bodies of a decision as name/value pairs and bytes
 * ({@link dev.limiter.decision.DecisionResponses}), whether a shared cache may keep a
 * response, the observers, shadow-mode and estimate logs, and what an admitted request
 * hands back once when it ends ({@link dev.limiter.decision.AdmissionEnds}: its lease,
 * the settlement of its units).
 *
 * <p>
 * Nothing here names the Servlet API or WebFlux: {@code dev.limiter.servlet} and
 * {@code dev.limiter.reactive} are thin adapters over it. Internal: it may change in any
 * release.
 */
package dev.limiter.decision;
