package dev.limiter.core.contract;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.GuardState;
import dev.limiter.core.guard.PendingReservation;

/**
 * A test guard store that is down, like a remote one: every call that answers throws
 * {@link RateLimitStoreException} (or the failure it was given), a call sent without
 * waiting fails when its answer is read, settlements and releases vanish; and it says
 * which calls reached it.
 */
public final class DownAuthGuardStore implements AuthGuardStore {

	private final RuntimeException failure;

	private final List<String> calls = new CopyOnWriteArrayList<>();

	public DownAuthGuardStore() {
		this(new RateLimitStoreException("down"));
	}

	/** A guard store whose every answer is {@code failure} itself. */
	public DownAuthGuardStore(RuntimeException failure) {
		this.failure = failure;
	}

	/** The calls that reached this store, in order: {@code reserve}, {@code fail}, ... */
	public List<String> calls() {
		return calls;
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		calls.add("reserve");
		throw failure;
	}

	@Override
	public PendingReservation reserveAsync(String addressKey, String credentialKey, long nowMillis) {
		calls.add("reserve");
		return () -> {
			throw failure;
		};
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		calls.add("fail");
		throw failure;
	}

	@Override
	public CompletionStage<Failure> failAsync(String addressKey, Lease reservation, long nowMillis) {
		calls.add("fail");
		return CompletableFuture.failedFuture(failure);
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		calls.add("succeed");
	}

	@Override
	public boolean unblock(String addressKey, long nowMillis) {
		calls.add("unblock");
		throw failure;
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		calls.add("release");
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		calls.add("state");
		throw failure;
	}

}
