/**
 * The request-body bound ({@code limiter.max-request-body}): the filter, the bounded
 * request and the response that answers once the bound is crossed.
 *
 * <p>
 * Internal: the {@code 413} it answers is specified in {@code docs/http-contract.md}.
 */
package dev.limiter.web.body;
