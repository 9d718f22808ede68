/**
 * The limiter's model and its store SPI, in plain Java with no dependency: budgets and
 * their bounds ({@link dev.limiter.core.Budget}, {@link dev.limiter.core.Window} and its
 * {@link dev.limiter.core.WindowAlgorithm}, {@link dev.limiter.core.ConcurrencyBound}),
 * what a store answers ({@link dev.limiter.core.Decision},
 * {@link dev.limiter.core.BoundVerdict}, {@link dev.limiter.core.KeyState},
 * {@link dev.limiter.core.Lease}), the store itself
 * ({@link dev.limiter.core.RateLimitStore}, with {@link dev.limiter.core.RateLimitStores}
 * for the in-memory one), leased quota slices ({@link dev.limiter.core.SliceTerms},
 * {@link dev.limiter.core.Slice}, the {@code SlicedRateLimitStore} decorator: ADR 0014)
 * and the over-limit memory every store is wrapped in.
 *
 * <p>
 * API: the model types, {@link dev.limiter.core.RateLimitStore} (a bean of that type
 * replaces the store; the test-jar's {@code RateLimitStoreContractTests} holds an
 * implementation to the rules), {@link dev.limiter.core.StoreModeListener} and the
 * exceptions ({@link dev.limiter.core.RateLimitStoreException},
 * {@link dev.limiter.core.InvalidValueException}). The decorator and the helpers ({@code
 * OverLimitRememberingStore}, {@code Sha256}, {@code Seconds}, {@code RequestStoreTime},
 * ...) are public for the Spring modules and may change in any release.
 */
package dev.limiter.core;
