package dev.limiter.resilience;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.Slice;
import dev.limiter.core.SliceTerms;

/**
 * The calls of {@link FailOpenRateLimitStore} that decide a request: each asks the
 * authoritative store, tells the {@link OutageMode} how it went, and when the store
 * cannot answer decides with the fallback ({@link FallbackDecisions}); the same for a
 * decision, a reservation and a slice, waited for or answered later. The arguments are
 * checked by the caller.
 */
final class FailOpenDecisions {

	private final RateLimitStore authoritative;

	private final OutageMode outage;

	private final FallbackDecisions instead;

	FailOpenDecisions(RateLimitStore authoritative, OutageMode outage, FallbackDecisions instead) {
		this.authoritative = authoritative;
		this.outage = outage;
		this.instead = instead;
	}

	/** {@code amounts} per window when reserving, else {@code cost} from each. */
	Decision decide(Budget budget, String key, long cost, long[] amounts, boolean expensive, long nowMillis) {
		long call = outage.started();
		try {
			return answered(call, (amounts != null) ? authoritative.reserve(budget, key, amounts, expensive, nowMillis)
					: authoritative.take(budget, key, cost, expensive, nowMillis));
		}
		catch (RuntimeException failure) {
			return failed(call, failure, budget, key, cost, amounts, expensive, nowMillis);
		}
	}

	/**
	 * {@link #decide} when the authoritative store's answer arrives later: the same
	 * {@link #answered} and {@link #failed}, run when its stage completes.
	 */
	CompletionStage<Decision> decideAsync(Budget budget, String key, long cost, long[] amounts, boolean expensive,
			long nowMillis) {
		long call = outage.started();
		return answerAsync(
				() -> (amounts != null) ? authoritative.reserveAsync(budget, key, amounts, expensive, nowMillis)
						: authoritative.takeAsync(budget, key, cost, expensive, nowMillis),
				(decision) -> answered(call, decision),
				(failure) -> failed(call, failure, budget, key, cost, amounts, expensive, nowMillis));
	}

	/**
	 * A slice (ADR 0014) decided as a {@code take} is: the authoritative store's slice
	 * while it answers; when it cannot, the fallback's decision (degraded) for the
	 * request alone, a slice of nothing beyond its cost, so that nothing is admitted
	 * locally on a guess.
	 */
	Slice slice(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		long call = outage.started();
		try {
			return answered(call, authoritative.takeSlice(budget, key, cost, terms, nowMillis));
		}
		catch (RuntimeException failure) {
			return requestOnly(failed(call, failure, budget, key, cost, null, false, nowMillis), cost);
		}
	}

	/** {@link #slice} when the authoritative store's answer arrives later. */
	CompletionStage<Slice> sliceAsync(Budget budget, String key, long cost, SliceTerms terms, long nowMillis) {
		long call = outage.started();
		return answerAsync(() -> authoritative.takeSliceAsync(budget, key, cost, terms, nowMillis),
				(slice) -> answered(call, slice),
				(failure) -> requestOnly(failed(call, failure, budget, key, cost, null, false, nowMillis), cost));
	}

	private Decision failed(long call, RuntimeException failure, Budget budget, String key, long cost, long[] amounts,
			boolean expensive, long nowMillis) {
		outage.failed(call, failure);
		return instead.decide(failure, budget, key, cost, amounts, expensive, nowMillis);
	}

	/** The authoritative store's decision. */
	private Decision answered(long call, Decision decision) {
		if (decision.allowed()) {
			// Only an admission proves the store answered: a refusal may come from a
			// decorator's local memory of keys over their limit (no store call at all),
			// which must not end an outage.
			outage.succeeded(call);
		}
		return decision.withLeaseIssuedBy(authoritative);
	}

	private Slice answered(long call, Slice slice) {
		return new Slice(answered(call, slice.decision()), slice.units());
	}

	private static Slice requestOnly(Decision decision, long cost) {
		return new Slice(decision, decision.allowed() ? cost : 0);
	}

	/**
	 * The stage {@code send} returns, answered by {@code answered} when it completes, and
	 * by {@code failed} (the fallback) when it fails or cannot be sent; a fail-closed
	 * budget's refusal fails the stage itself.
	 */
	private static <T> CompletionStage<T> answerAsync(Supplier<CompletionStage<T>> send, UnaryOperator<T> answered,
			Function<RuntimeException, T> failed) {
		CompletionStage<T> sent;
		try {
			sent = send.get();
		}
		catch (RuntimeException failedToSend) {
			sent = CompletableFuture.failedFuture(failedToSend);
		}
		CompletableFuture<T> decided = new CompletableFuture<>();
		sent.whenComplete((answer, failure) -> {
			try {
				decided.complete((failure == null) ? answered.apply(answer)
						: failed.apply(StoreCircuitBreaker.unwrapped(failure)));
			}
			catch (RuntimeException failClosed) {
				decided.completeExceptionally(failClosed);
			}
		});
		return decided;
	}

}
