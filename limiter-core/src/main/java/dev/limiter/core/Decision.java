package dev.limiter.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole answer for one request: whether it is admitted, how every bound stands, the
 * lease it holds, how long to wait when refused, and how trustworthy the answer is.
 * Immutable: what it answers never changes, also when {@link #admitted} makes its
 * verdicts only when first read (its {@link AdmissionRule}s are pure).
 *
 * <p>
 * Built by {@link #of}, which is the single place where per-bound verdicts turn into
 * admission and a retry-after, whatever store produced them; {@link #admitted} builds the
 * same admission by windows alone without making its verdicts up front.
 */
public final class Decision {

	private final String budget;

	private final long decidedAtMillis;

	private final List<BoundVerdict> verdicts;

	private final Lease lease;

	private final BoundVerdict refusingBound;

	private final boolean degraded;

	private final boolean counted;

	/** The {@code notify-at} thresholds this decision reached; empty for most. */
	private final List<ThresholdCrossing> crossings;

	private Decision(String budget, long decidedAtMillis, List<BoundVerdict> verdicts, Lease lease,
			BoundVerdict refusingBound, boolean degraded, boolean counted, List<ThresholdCrossing> crossings) {
		this.crossings = crossings;
		this.budget = budget;
		this.decidedAtMillis = decidedAtMillis;
		this.verdicts = verdicts;
		this.lease = lease;
		this.refusingBound = refusingBound;
		this.degraded = degraded;
		this.counted = counted;
	}

	/**
	 * Assembles a decision from per-bound verdicts: admitted when no bound refused;
	 * otherwise the refusing bound is the one with the longest wait, and that wait is the
	 * retry-after.
	 */
	public static Decision of(String budget, long decidedAtMillis, List<BoundVerdict> verdicts, Lease lease) {
		Objects.requireNonNull(budget, "budget");
		if (verdicts instanceof AdmittedWindowVerdicts) {
			// Immutable already, and none of its windows refused.
			return new Decision(budget, decidedAtMillis, verdicts, lease, null, false, true, List.of());
		}
		List<BoundVerdict> copy = List.copyOf(verdicts);
		if (copy.isEmpty()) {
			throw new IllegalArgumentException("a decision needs at least one bound");
		}
		BoundVerdict longest = null;
		for (int i = 0; i < copy.size(); i++) {
			// Indexed: an iterator would be an allocation on every decision.
			BoundVerdict v = copy.get(i);
			if (v.refused() && (longest == null || v.retryAtMillis() > longest.retryAtMillis())) {
				longest = v;
			}
		}
		if (longest != null && lease != null) {
			throw new IllegalArgumentException("a refused decision cannot hold a lease");
		}
		return new Decision(budget, decidedAtMillis, copy, lease, longest, false, true, List.of());
	}

	/**
	 * The admission {@link #of} builds from
	 * {@code BoundVerdict.window(window, counted, resetAtMillis, false)} per window, for
	 * a budget of one or two windows when no concurrency bound took part: each window
	 * answers by {@link AdmissionRule#FIXED_WINDOW}.
	 * @param budget the budget, of one or two windows
	 * @param decidedAtMillis when the decision was taken, epoch milliseconds
	 * @param firstCounted units counted in the first window, this request included
	 * @param firstResetAtMillis the end of the first window counted in
	 * @param secondCounted units counted in the second window; ignored for one window
	 * @param secondResetAtMillis the end of the second window; ignored for one window
	 * @throws IllegalArgumentException if the budget has more than two windows, or a
	 * count is negative or above its window's limit (which would be no admission)
	 */
	public static Decision admitted(Budget budget, long decidedAtMillis, long firstCounted, long firstResetAtMillis,
			long secondCounted, long secondResetAtMillis) {
		AdmittedWindowVerdicts.checkFixedAdmission(budget, firstCounted, secondCounted);
		return admitted(budget, decidedAtMillis, AdmissionRule.FIXED_WINDOW, firstCounted, firstResetAtMillis, 0,
				AdmissionRule.FIXED_WINDOW, secondCounted, secondResetAtMillis, 0);
	}

	/**
	 * An admission by a budget of one or two windows when no concurrency bound took part,
	 * each window's verdict made by its {@link AdmissionRule} from the numbers its
	 * algorithm took when it counted the admission, and only when first asked for: a
	 * store's admission path allocates no verdict for a caller that needs only the
	 * answer. Equal to the decision {@link #of} builds from the verdicts the rules
	 * answer.
	 * @param budget the budget, of one or two windows
	 * @param decidedAtMillis when the decision was taken, epoch milliseconds
	 * @param firstRule the first window's rule
	 * @param firstCounted what the first window counts after the admission
	 * @param firstResetAtMillis the first window's reset after the admission
	 * @param firstExtra the first window's algorithm's own number
	 * @param secondRule the second window's rule; ignored for one window
	 * @param secondCounted as {@code firstCounted}, for the second window
	 * @param secondResetAtMillis as {@code firstResetAtMillis}, for the second window
	 * @param secondExtra as {@code firstExtra}, for the second window
	 * @throws IllegalArgumentException if the budget has more than two windows
	 * @throws NullPointerException if a window's rule is {@code null}
	 */
	public static Decision admitted(Budget budget, long decidedAtMillis, AdmissionRule firstRule, long firstCounted,
			long firstResetAtMillis, long firstExtra, AdmissionRule secondRule, long secondCounted,
			long secondResetAtMillis, long secondExtra) {
		return new Decision(budget.name(), decidedAtMillis,
				AdmittedWindowVerdicts.of(budget, decidedAtMillis, firstRule, firstCounted, firstResetAtMillis,
						firstExtra, secondRule, secondCounted, secondResetAtMillis, secondExtra),
				null, null, false, true, List.of());
	}

	public String budget() {
		return budget;
	}

	public boolean allowed() {
		return refusingBound == null;
	}

	/** When the decision was taken, epoch milliseconds. */
	public long decidedAtMillis() {
		return decidedAtMillis;
	}

	/** Every window in declaration order, then the concurrency bound if one took part. */
	public List<BoundVerdict> verdicts() {
		return verdicts;
	}

	/**
	 * The lease held by an admitted expensive request; release it when the request
	 * completes.
	 */
	public Optional<Lease> lease() {
		return Optional.ofNullable(lease);
	}

	/** The refusing bound with the longest wait; empty when admitted. */
	public Optional<BoundVerdict> refusingBound() {
		return Optional.ofNullable(refusingBound);
	}

	/**
	 * Exact milliseconds until the longest-waiting refusing bound frees room; 0 when
	 * admitted.
	 */
	public long retryAfterMillis() {
		return refusingBound == null ? 0 : refusingBound.retryAfterMillis(decidedAtMillis);
	}

	/**
	 * {@link #retryAfterMillis()} in whole seconds, rounded up and never 0 for a refusal.
	 */
	public long retryAfterSeconds() {
		if (refusingBound == null) {
			return 0;
		}
		return Seconds.atLeastOne(retryAfterMillis());
	}

	/**
	 * The window that binds the caller: the fewest remaining; among equals, the one that
	 * resets last. Never the concurrency bound.
	 */
	public BoundVerdict bindingWindow() {
		BoundVerdict binding = null;
		for (int i = 0; i < verdicts.size(); i++) {
			// Indexed: an iterator would be an allocation on every response.
			BoundVerdict v = verdicts.get(i);
			if (v.concurrency()) {
				continue;
			}
			if (binding == null || v.remaining() < binding.remaining()
					|| (v.remaining() == binding.remaining() && v.resetAtMillis() > binding.resetAtMillis())) {
				binding = v;
			}
		}
		return binding != null ? binding : verdicts.get(0);
	}

	/**
	 * Whether a window (not the concurrency bound) has nothing left; on an admission's
	 * path, so the verdicts are not made for it.
	 */
	boolean anyWindowExhausted() {
		if (verdicts instanceof AdmittedWindowVerdicts admitted) {
			return admitted.anyExhausted();
		}
		for (int i = 0; i < verdicts.size(); i++) {
			BoundVerdict v = verdicts.get(i);
			if (!v.concurrency() && v.remaining() == 0) {
				return true;
			}
		}
		return false;
	}

	/** Decided without the authoritative store (by the fallback). */
	public boolean degraded() {
		return degraded;
	}

	/** False only when nothing could count this request at all. */
	public boolean counted() {
		return counted;
	}

	/**
	 * The {@code notify-at} thresholds of its windows this decision reached, each
	 * reported by exactly one decision per key, window period and threshold on the
	 * authoritative store; a {@link #degraded()} decision's are the fallback's, this
	 * instance's alone.
	 */
	public List<ThresholdCrossing> crossings() {
		return crossings;
	}

	/** The same decision reporting {@code crossings}. */
	public Decision withCrossings(List<ThresholdCrossing> crossings) {
		return new Decision(budget, decidedAtMillis, verdicts, lease, refusingBound, degraded, counted,
				List.copyOf(crossings));
	}

	public Decision asDegraded() {
		return new Decision(budget, decidedAtMillis, verdicts, lease, refusingBound, true, counted, crossings);
	}

	public Decision asUncounted() {
		return new Decision(budget, decidedAtMillis, verdicts, lease, refusingBound, degraded, false, crossings);
	}

	/**
	 * The same decision whose lease (if any) releases itself to {@code issuer}, unless
	 * another store already claimed it: the store that wraps the issuing one binds its
	 * leases on the way out.
	 */
	public Decision withLeaseIssuedBy(RateLimitStore issuer) {
		if (lease == null || lease.issuer() != null) {
			return this;
		}
		return new Decision(budget, decidedAtMillis, verdicts, lease.issuedBy(issuer), refusingBound, degraded, counted,
				crossings);
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Decision d && budget.equals(d.budget) && decidedAtMillis == d.decidedAtMillis
				&& verdicts.equals(d.verdicts) && Objects.equals(lease, d.lease)
				&& Objects.equals(refusingBound, d.refusingBound) && degraded == d.degraded && counted == d.counted
				&& crossings.equals(d.crossings);
	}

	@Override
	public int hashCode() {
		return Objects.hash(budget, decidedAtMillis, verdicts, lease, refusingBound, degraded, counted);
	}

	@Override
	public String toString() {
		return "Decision[" + budget + (allowed() ? " allowed" : " refused by " + refusingBound.name())
				+ ", retryAfterMillis=" + retryAfterMillis() + ", verdicts=" + verdicts + ", lease=" + lease
				+ (degraded ? ", degraded" : "") + (counted ? "" : ", uncounted") + "]";
	}

}
