package dev.limiter.core.internal;

import java.util.List;

import dev.limiter.core.AdmissionRule;
import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * How one window algorithm counts a window of a budget that {@link BudgetArithmetic}
 * decides (and settles) window by window: read, then count and answer, and settle. One
 * implementation per {@link WindowAlgorithm}, found by {@link #of}; each delegates to its
 * algorithm's arithmetic ({@link FixedWindowArithmetic} and {@link FixedWindowDebt},
 * {@link SlidingWindowArithmetic}, {@link TokenBucketArithmetic}; {@link CalendarWindows}
 * is its own). {@code take.lua} and {@code settle.lua} hold the same rules in one block
 * per algorithm.
 */
sealed interface WindowArithmetic permits FixedWindows, SlidingWindows, TokenBuckets, CalendarWindows {

	/** Every algorithm's arithmetic, one per {@link WindowAlgorithm}. */
	List<WindowArithmetic> ALL = List.of(new FixedWindows(), new SlidingWindows(), new TokenBuckets(),
			new CalendarWindows());

	/** The arithmetic of {@code window}'s algorithm. */
	static WindowArithmetic of(Window window) {
		WindowArithmetic arithmetic = ByAlgorithm.ARITHMETIC[window.algorithm().ordinal()];
		if (arithmetic == null) {
			throw new IllegalStateException("no arithmetic for the window algorithm " + window.algorithm());
		}
		return arithmetic;
	}

	WindowAlgorithm algorithm();

	/**
	 * Reads window {@code i} at {@code nowMillis}: whether {@code cost} fits. Outside a
	 * dry run it may move {@code state} on to the instance that counts now, as a refusal
	 * does too.
	 * @param state the key's counters, {@code null} in a dry run when the store holds
	 * none
	 */
	Reading read(Window w, CounterState state, int i, long cost, boolean dryRun, long nowMillis);

	/**
	 * Counts {@code cost} in window {@code i} when {@code counts}, then says how it
	 * stands.
	 */
	BoundVerdict count(Window w, CounterState state, int i, Reading reading, long cost, boolean counts, long nowMillis);

	/**
	 * {@link #count} for an admission (every window of the decision had room), without
	 * its verdict: that is {@link #admissionRule()}'s, made when a caller reads it, from
	 * what the window counts after the admission ({@code reading.before() + cost}), its
	 * reset ({@code state.reset(i)} after counting) and the number returned here.
	 * @return the rule's own number ({@link AdmissionRule#verdict}'s {@code extra})
	 */
	long countAdmitted(Window w, CounterState state, int i, Reading reading, long cost, long nowMillis);

	/**
	 * How this algorithm's admissions answer their verdicts from what
	 * {@link #countAdmitted} leaves: the verdict {@link #count} would have answered.
	 */
	AdmissionRule admissionRule();

	/**
	 * Applies {@code delta}, within {@code SettlementBounds.clampDelta}, to
	 * {@code instance} of window {@code i} when that instance is still the one stored.
	 */
	void settle(Window w, CounterState state, int i, long instance, long delta, long nowMillis);

	/**
	 * Until when window {@code i} of {@code state} still matters: when it ends, or later
	 * while it carries what it counted beyond its limit.
	 */
	default long keptUntil(Window w, CounterState state, int i) {
		return state.reset(i);
	}

	/**
	 * What {@link #read} saw.
	 *
	 * @param room whether the cost fits
	 * @param reset a fixed window's end, 0 for the others
	 * @param before what counted before this request: a fixed window's count, a sliding
	 * window's units still counting; 0 for a token bucket
	 */
	record Reading(boolean room, long reset, long before) {

		private static final Reading ROOM = new Reading(true, 0, 0);

		private static final Reading NO_ROOM = new Reading(false, 0, 0);

		/**
		 * What a window that reads neither a reset nor a count before saw: one shared
		 * instance each, since a decision's path allocates nothing it can avoid.
		 */
		static Reading of(boolean room) {
			return room ? ROOM : NO_ROOM;
		}

	}

	/**
	 * {@link #ALL} indexed by {@link WindowAlgorithm#ordinal()}: {@link #of} is on every
	 * decision's path, where a walk over the list showed in profiles.
	 */
	final class ByAlgorithm {

		static final WindowArithmetic[] ARITHMETIC = new WindowArithmetic[WindowAlgorithm.values().length];

		static {
			for (WindowArithmetic arithmetic : ALL) {
				ARITHMETIC[arithmetic.algorithm().ordinal()] = arithmetic;
			}
		}

		private ByAlgorithm() {
		}

	}

}
