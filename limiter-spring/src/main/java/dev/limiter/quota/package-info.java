/**
 * What a caller's quota tells the application: {@code QuotaThresholdEvents} publishes a
 * {@code QuotaThresholdEvent} for each {@code notify-at} threshold a decision reached.
 *
 * <p>
 * Internal: the event ({@code dev.limiter.spring.QuotaThresholdEvent}) and the properties
 * are the contract, not these classes.
 */
package dev.limiter.quota;
