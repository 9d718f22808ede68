package dev.limiter.core;

/**
 * The time one request has spent waiting for a store, shared by every store call the
 * request makes on its thread (the authentication guard's and the budgets'), so that a
 * store can hold the whole request to one timeout rather than one timeout per call.
 *
 * <p>
 * Filters {@link #open() open} a scope around the request; a store that waits on the
 * network asks {@link #spentNanos()} before a call and reports its wait through
 * {@link #spend(long)}. Outside a scope nothing is counted and every call gets its full
 * timeout. Scopes nest: only the outermost one forgets the time.
 */
public final class RequestStoreTime {

	private static final ThreadLocal<RequestStoreTime> CURRENT = new ThreadLocal<>();

	private long spentNanos;

	private int depth;

	private RequestStoreTime() {
	}

	/**
	 * Starts counting for the request on this thread, or joins the count an outer filter
	 * started.
	 */
	public static Scope open() {
		RequestStoreTime current = CURRENT.get();
		if (current == null) {
			current = new RequestStoreTime();
			CURRENT.set(current);
		}
		current.depth++;
		return new Scope(current);
	}

	/**
	 * The request counted on this thread, {@code null} outside one: an identity for a
	 * store that keeps state for one request on a thread that serves many (a pooled
	 * servlet thread), so that the next request on the thread does not inherit it.
	 */
	public static RequestStoreTime current() {
		return CURRENT.get();
	}

	/**
	 * Nanoseconds the current request has waited for a store so far; 0 outside a request.
	 */
	public static long spentNanos() {
		RequestStoreTime current = CURRENT.get();
		return current != null ? current.spentNanos : 0;
	}

	/** Adds a wait to the current request's total; does nothing outside a request. */
	public static void spend(long nanos) {
		RequestStoreTime current = CURRENT.get();
		if (current != null && nanos > 0) {
			current.spentNanos += nanos;
		}
	}

	/** Closes one level of counting; the outermost close forgets the request. */
	public static final class Scope implements AutoCloseable {

		private final RequestStoreTime time;

		private boolean closed;

		private Scope(RequestStoreTime time) {
			this.time = time;
		}

		@Override
		public void close() {
			if (closed) {
				return;
			}
			closed = true;
			if (--time.depth == 0 && CURRENT.get() == time) {
				CURRENT.remove();
			}
		}

	}

}
