package dev.limiter.decision;

/**
 * Follows the work an admission does after its response (the lease's release, the
 * settlement): told when each begins and when it is done, which may be on the store's
 * thread. The servlet filter's {@code InstrumentedDecision} is one.
 */
@FunctionalInterface
public interface AfterResponseWork {

	String LEASE_RELEASE = "lease-release";

	String SETTLEMENT = "settlement";

	AfterResponseWork NONE = (kind, budget) -> Done.NONE;

	/**
	 * Work of {@code kind} ({@link #LEASE_RELEASE}, {@link #SETTLEMENT}) for
	 * {@code budget} begins.
	 */
	Done begin(String kind, String budget);

	/** The end of one piece of work. */
	@FunctionalInterface
	interface Done {

		Done NONE = (failure) -> {
		};

		/**
		 * @param failure why it failed, {@code null} when it did not
		 */
		void done(Throwable failure);

	}

}
