package dev.limiter.core;

/**
 * Told once per change of mode, never once per request: an outage of any length produces
 * exactly one {@link #degraded} and, when it heals, one {@link #recovered}.
 */
public interface StoreModeListener {

	/** The store stopped answering; {@code cause} is the failure that showed it. */
	void degraded(String store, Throwable cause);

	/** The store answers again; its counters are authoritative from this decision on. */
	void recovered(String store);

	StoreModeListener NONE = new StoreModeListener() {
		@Override
		public void degraded(String store, Throwable cause) {
		}

		@Override
		public void recovered(String store) {
		}
	};

}
