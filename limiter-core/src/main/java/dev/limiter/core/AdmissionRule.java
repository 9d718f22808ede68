package dev.limiter.core;

/**
 * How a window algorithm turns an admission into its window's {@link BoundVerdict}, from
 * three numbers the algorithm took when it counted the admission: what the window counts
 * after it, the window's reset, and one number of the algorithm's own. A store hands the
 * rule and the numbers to
 * {@link Decision#admitted(Budget, long, AdmissionRule, long, long, long, AdmissionRule, long, long, long)},
 * so that the verdicts are made only when a caller reads them; a caller that reads only
 * {@link Decision#allowed()} pays for none. Each rule says which of the numbers it reads
 * and what they mean.
 *
 * <p>
 * Contract, which keeps a {@link Decision} immutable: both methods are pure functions of
 * their arguments. They read no state of a store or of anything that changes (the numbers
 * were taken under the store's lock, and the rule may be asked any time after, from any
 * thread, more than once for the same verdict); equal arguments give equal verdicts, and
 * every verdict is one of an admission ({@link BoundVerdict#refused()} false). A rule is
 * stateless, so one instance serves every decision.
 */
public interface AdmissionRule {

	/**
	 * The rule of a fixed window and of a calendar window: {@code counted} units counted
	 * in the window that ends at {@code resetAtMillis}, which is also when it next
	 * answers better ({@link BoundVerdict#window(Window, long, long, boolean)});
	 * {@code extra} is not read.
	 */
	AdmissionRule FIXED_WINDOW = new AdmissionRule() {

		@Override
		public BoundVerdict verdict(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
			return BoundVerdict.window(window, counted, resetAtMillis, false);
		}

		@Override
		public boolean exhausted(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis) {
			return counted >= window.limit();
		}

		@Override
		public String toString() {
			return "AdmissionRule.FIXED_WINDOW";
		}

	};

	/**
	 * How {@code window} stands after the admission decided at {@code decidedAtMillis}.
	 * @param window the window, as the budget declares it
	 * @param counted what the window counts after the admission, as its algorithm counts
	 * @param resetAtMillis the window's reset as its algorithm kept it after the
	 * admission
	 * @param extra the algorithm's own number
	 * @param decidedAtMillis when the admission was decided, epoch milliseconds
	 */
	BoundVerdict verdict(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis);

	/**
	 * Whether {@link #verdict}'s {@code remaining} is 0, for the same arguments: told on
	 * an admission's path without making the verdict, so it must cost less than making
	 * it.
	 */
	boolean exhausted(Window window, long counted, long resetAtMillis, long extra, long decidedAtMillis);

}
