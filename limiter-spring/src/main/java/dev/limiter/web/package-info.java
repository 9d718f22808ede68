/**
 * What the limiter's filters share without knowing each other: the HTTP contract's names
 * and meanings ({@link dev.limiter.web.RateLimitHeader},
 * {@link dev.limiter.web.ProblemMember}), problem responses
 * ({@link dev.limiter.web.ProblemResponse}, {@link dev.limiter.web.ProblemJson}), the end
 * of a request ({@link dev.limiter.web.RequestEnd}), a guard answer still on its way
 * ({@link dev.limiter.web.PendingVerdict}), the response wrapper that drops the
 * application's answer for the limiter's
 * ({@link dev.limiter.web.AnswerDroppingResponse}), the CORS headers of the responses the
 * limiter writes ({@link dev.limiter.web.CorsHeaders}), the read of a body a handler left
 * unread ({@link dev.limiter.web.UnreadBody}).
 *
 * <p>
 * Internal: the bodies and headers written are specified in {@code
 * docs/http-contract.md}; the classes may change in any release.
 */
package dev.limiter.web;
