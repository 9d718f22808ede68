package dev.limiter.core.guard;

import java.time.Duration;
import java.util.Objects;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;

/**
 * The guard on any {@link RateLimitStore}, through its ordinary SPI: three budgets per
 * address, all expressed as concurrency leases because a lease is the one thing the SPI
 * keeps for an exact, unanchored duration:
 * <ul>
 * <li>{@code auth-guard-pending}: one lease per lookup in flight (at most
 * {@code max-pending});</li>
 * <li>{@code auth-guard-failures}: one lease per completed failure, living {@code window}
 * after it happened (at most {@code threshold});</li>
 * <li>{@code auth-guard-block}: a single lease living exactly {@code block} from the
 * failure that reached the threshold; never released.</li>
 * </ul>
 * Each budget also needs a window; theirs never refuses. The credentials proven per
 * address are kept beside them, in this instance ({@link ProvenCredentials}): the SPI has
 * no bounded set of named members. A reservation costs three store calls (peek the block,
 * take the reservation, peek the failures): free in memory, three round trips on a remote
 * store, which is why a remote store offers its own {@link AuthGuardStore} through
 * {@link AuthGuardStoreProvider}.
 *
 * <p>
 * Each step on one address (reserve, fail, succeed, state) runs under that address's
 * lock, so the three calls of a reservation are one atomic step for every caller of this
 * instance: a reservation can never check the block before a failure starts it and read
 * the failures after the block dropped them. On the in-process store that is every
 * caller, and the guard is exact; on a remote store reached through this SPI it is exact
 * per instance only.
 */
public final class StoreBackedAuthGuardStore implements AuthGuardStore {

	static final String PENDING_BUDGET = "auth-guard-pending";
	static final String FAILURES_BUDGET = "auth-guard-failures";
	static final String BLOCK_BUDGET = "auth-guard-block";

	private static final int LOCK_STRIPES = 256;

	private final RateLimitStore store;

	private final AuthGuardPolicy policy;

	private final Budget pending;

	private final Budget failures;

	private final Budget block;

	private final ProvenCredentials proven = new ProvenCredentials(AuthGuardPolicy.PROVEN_CREDENTIALS_PER_ADDRESS,
			ProvenCredentials.MAX_ADDRESSES);

	/**
	 * Striped locks, one stripe per address key's hash: few enough to cost nothing, many
	 * enough that two busy addresses rarely share one.
	 */
	private final Object[] locks = new Object[LOCK_STRIPES];

	public StoreBackedAuthGuardStore(RateLimitStore store, AuthGuardPolicy policy) {
		this.store = Objects.requireNonNull(store, "store");
		this.policy = Objects.requireNonNull(policy, "policy");
		this.pending = leaseBudget(PENDING_BUDGET, policy.maxPending(), policy.lookupLease());
		this.failures = leaseBudget(FAILURES_BUDGET, policy.threshold(), policy.window());
		this.block = leaseBudget(BLOCK_BUDGET, 1, policy.block());
		for (int i = 0; i < locks.length; i++) {
			locks[i] = new Object();
		}
	}

	private Object lockOf(String addressKey) {
		return locks[(addressKey.hashCode() & 0x7fffffff) % locks.length];
	}

	/** The store the guard's budgets are counted in. */
	public RateLimitStore store() {
		return store;
	}

	@Override
	public Reservation reserve(String addressKey, String credentialKey, long nowMillis) {
		synchronized (lockOf(addressKey)) {
			return reserveLocked(addressKey, credentialKey, nowMillis);
		}
	}

	private Reservation reserveLocked(String addressKey, String credentialKey, long nowMillis) {
		KeyState blockState = store.peek(block, addressKey, nowMillis);
		long blockedUntil = blockedUntil(blockState);
		boolean running = blockedUntil > nowMillis;
		if (proven.proven(addressKey, credentialKey, nowMillis)) {
			return Reservation.proven(running ? blockedUntil : 0, blockState.degraded());
		}
		if (running) {
			return new Reservation(GuardAdmission.Outcome.BLOCKED, blockedUntil, null, 0, blockState.degraded(),
					proven.count(addressKey, nowMillis) > 0);
		}
		Decision reservation = store.take(pending, addressKey, 1, true, nowMillis);
		if (!reservation.allowed()) {
			return saturated(reservation.degraded());
		}
		Lease lease = reservation.lease().orElse(null);
		long inFlight = held(concurrencyOf(reservation.verdicts()));
		long completed = held(concurrencyOf(store.peek(failures, addressKey, nowMillis).bounds()));
		if (completed >= policy.threshold()) {
			release(lease, nowMillis);
			return new Reservation(GuardAdmission.Outcome.BLOCKED, startBlock(addressKey, nowMillis), null, 0,
					reservation.degraded(), proven.count(addressKey, nowMillis) > 0);
		}
		if (completed + inFlight > policy.threshold()) {
			release(lease, nowMillis);
			return saturated(reservation.degraded());
		}
		return new Reservation(GuardAdmission.Outcome.ADMITTED, 0, lease, completed, reservation.degraded());
	}

	@Override
	public Failure fail(String addressKey, Lease reservation, long nowMillis) {
		synchronized (lockOf(addressKey)) {
			return failLocked(addressKey, reservation, nowMillis);
		}
	}

	private Failure failLocked(String addressKey, Lease reservation, long nowMillis) {
		try {
			Decision failure = store.take(failures, addressKey, 1, true, nowMillis);
			BoundVerdict count = concurrencyOf(failure.verdicts());
			if (failure.allowed() && held(count) >= policy.threshold()) {
				return new Failure(true, startBlock(addressKey, nowMillis), proven.count(addressKey, nowMillis) > 0);
			}
			if (!failure.allowed()) {
				// Already at the threshold: make sure the block exists (another instance
				// may have died before).
				return new Failure(false, startBlock(addressKey, nowMillis), proven.count(addressKey, nowMillis) > 0);
			}
			return new Failure(false, 0);
		}
		finally {
			release(reservation, nowMillis);
		}
	}

	@Override
	public void succeed(String addressKey, Lease reservation, String credentialKey, long nowMillis) {
		synchronized (lockOf(addressKey)) {
			try {
				if (credentialKey != null) {
					proven.prove(addressKey, credentialKey, nowMillis + policy.window().toMillis(), nowMillis);
				}
			}
			finally {
				release(reservation, nowMillis);
			}
		}
	}

	@Override
	public boolean unblock(String addressKey, long nowMillis) {
		synchronized (lockOf(addressKey)) {
			boolean running = blockedUntil(store.peek(block, addressKey, nowMillis)) > nowMillis;
			store.reset(block, addressKey);
			store.reset(failures, addressKey);
			return running;
		}
	}

	@Override
	public void release(Lease reservation, long nowMillis) {
		if (reservation == null) {
			return;
		}
		try {
			store.release(reservation, nowMillis);
		}
		catch (RateLimitStoreException unavailable) {
			// The reservation expires by itself after the lookup lease.
		}
	}

	@Override
	public GuardState state(String addressKey, long nowMillis) {
		synchronized (lockOf(addressKey)) {
			long blockedUntil = blockedUntil(store.peek(block, addressKey, nowMillis));
			long completed = held(concurrencyOf(store.peek(failures, addressKey, nowMillis).bounds()));
			long inFlight = held(concurrencyOf(store.peek(pending, addressKey, nowMillis).bounds()));
			return new GuardState(completed, inFlight, blockedUntil > nowMillis ? blockedUntil : 0,
					proven.count(addressKey, nowMillis));
		}
	}

	/**
	 * Starts the block (or finds the one already running) and drops the failures it
	 * replaces; returns its end.
	 */
	private long startBlock(String addressKey, long nowMillis) {
		Decision started = store.take(block, addressKey, 1, true, nowMillis);
		long until = started.lease()
			.map(Lease::expiresAtMillis)
			.orElseGet(() -> concurrencyOf(started.verdicts()).resetAtMillis());
		try {
			store.reset(failures, addressKey);
		}
		catch (RateLimitStoreException unavailable) {
			// Left over failures expire on their own; the block is what matters.
		}
		return until;
	}

	private static Reservation saturated(boolean degraded) {
		return new Reservation(GuardAdmission.Outcome.SATURATED, 0, null, 0, degraded);
	}

	private static long blockedUntil(KeyState state) {
		BoundVerdict lease = concurrencyOf(state.bounds());
		return lease.refused() ? lease.resetAtMillis() : 0;
	}

	private static BoundVerdict concurrencyOf(Iterable<BoundVerdict> verdicts) {
		for (BoundVerdict verdict : verdicts) {
			if (verdict.concurrency()) {
				return verdict;
			}
		}
		throw new IllegalStateException("the store answered without the concurrency bound the guard asked for");
	}

	private static long held(BoundVerdict concurrency) {
		return concurrency.limit() - concurrency.remaining();
	}

	private static Budget leaseBudget(String name, int leases, Duration leaseLength) {
		// The SPI needs a window on every budget; this one is never the bound that
		// refuses.
		return Budget.builder(name)
			.window("calls", Integer.MAX_VALUE, Duration.ofSeconds(1))
			.concurrency(leases, leaseLength)
			.build();
	}

}
