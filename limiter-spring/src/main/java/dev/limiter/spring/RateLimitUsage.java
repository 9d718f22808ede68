package dev.limiter.spring;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

import dev.limiter.core.SettlementBounds;
import jakarta.servlet.ServletRequest;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * What one request used, per unit other than requests, reported by the application after
 * (or while) its handler runs; the limiter settles it once when the request ends, off the
 * response path, against what the request reserved (ADR 0012).
 *
 * <pre>
 * RateLimitUsage.report(request, "tokens", completion.totalTokens());
 * </pre>
 *
 * <p>
 * From a controller, pass the request (or call {@link #report(String, long)} on its
 * thread); from another thread (a streaming callback, a reactive completion), take the
 * handle with {@link #of} on the request's thread and call {@link #add} on the handle
 * later. Reports add up per unit. A unit never reported keeps its estimate. A report
 * after the request ended changes nothing ({@link #add} says so): the settlement has been
 * sent; the limiter counts such a report in {@code limiter.settlements.dropped}.
 */
public final class RateLimitUsage {

	/** The request attribute holding the current request's usage. */
	public static final String ATTRIBUTE = RateLimitUsage.class.getName();

	/** Guarded by this: a report and the close never interleave. */
	private final Map<String, Long> amounts = new HashMap<>();

	private boolean closed;

	/** Told of every report made after the close, which counts nothing. */
	private final BiConsumer<String, Long> afterClose;

	/** A request's usage, nothing reported yet: the limiter makes one per reservation. */
	public RateLimitUsage() {
		this((unit, amount) -> {
		});
	}

	/**
	 * A request's usage whose reports after the close (which count nothing: the
	 * settlement has been sent) are handed to {@code afterClose}, so that none is lost
	 * silently: the limiter counts them in {@code limiter.settlements.dropped}
	 * ({@code reason=reported-after-end}).
	 */
	public RateLimitUsage(BiConsumer<String, Long> afterClose) {
		this.afterClose = Objects.requireNonNull(afterClose, "afterClose");
	}

	/**
	 * Reports {@code amount} of {@code unit} used by {@code request}; nothing when the
	 * request reserved nothing (its route's budget counts requests only, or it is not
	 * limited).
	 * @throws IllegalArgumentException for a negative amount
	 */
	public static void report(ServletRequest request, String unit, long amount) {
		of(request).ifPresent((usage) -> usage.add(unit, amount));
	}

	/**
	 * {@link #report(ServletRequest, String, long)} for the request bound to this thread
	 * (Spring MVC's {@link RequestContextHolder}); nothing outside a request.
	 */
	public static void report(String unit, long amount) {
		BoundRequest.report(unit, amount);
	}

	/**
	 * The usage of {@code request}, a handle other threads may report through; empty when
	 * the request reserved nothing.
	 */
	public static Optional<RateLimitUsage> of(ServletRequest request) {
		return (request.getAttribute(ATTRIBUTE) instanceof RateLimitUsage usage) ? Optional.of(usage)
				: Optional.empty();
	}

	/**
	 * Adds {@code amount} of {@code unit}.
	 * @return false when the request already ended (the amount is not counted, and the
	 * limiter counts the report in {@code limiter.settlements.dropped})
	 * @throws IllegalArgumentException for a negative amount or a blank unit
	 */
	public boolean add(String unit, long amount) {
		Objects.requireNonNull(unit, "unit");
		if (amount < 0 || unit.isBlank()) {
			throw new IllegalArgumentException(
					"usage must be a unit and an amount of at least 0, was " + amount + " " + unit);
		}
		synchronized (this) {
			if (!closed) {
				// reports add up saturating: a sum never wraps into a refund
				amounts.merge(unit, amount, SettlementBounds::saturatedSum);
				return true;
			}
		}
		// outside the lock: the listener is the limiter's (a meter), never the reporter's
		afterClose.accept(unit, amount);
		return false;
	}

	/**
	 * Ends the reporting and hands back what was reported, once: the limiter calls this
	 * when the request ends.
	 * @return per unit the amount reported; empty when closed before
	 */
	public synchronized Optional<Map<String, Long>> close() {
		if (closed) {
			return Optional.empty();
		}
		closed = true;
		return Optional.of(Map.copyOf(amounts));
	}

	/**
	 * The request bound to the thread, read apart so that this class loads where the
	 * Servlet API is absent (a reactive application, whose handlers report through the
	 * exchange).
	 */
	private static final class BoundRequest {

		static void report(String unit, long amount) {
			RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
			if (attributes instanceof ServletRequestAttributes servlet) {
				RateLimitUsage.report(servlet.getRequest(), unit, amount);
			}
		}

	}

}
