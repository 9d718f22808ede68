package dev.limiter.core.guard;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Blocks an address that keeps failing authentication, checked before the credential is looked up (the
 * Aport seed's authentication limiter, without its bugs).
 *
 * <p>Everything lives in an ordinary {@link RateLimitStore}, so the guard is exact across instances on
 * Redis and falls back like the limiter when the store fails. Three budgets per address, all expressed as
 * concurrency leases because a lease is the one thing the SPI keeps for an exact, unanchored duration:
 * <ul>
 *   <li>{@code auth-guard-pending}: one lease per lookup in flight (at most {@code max-pending}), handed back
 *   when the lookup returns or throws;</li>
 *   <li>{@code auth-guard-failures}: one lease per completed failure, living {@code window} after it
 *   happened (at most {@code threshold});</li>
 *   <li>{@code auth-guard-block}: a single lease living exactly {@code block} from the failure that reached
 *   the threshold; never released.</li>
 * </ul>
 * Each budget also needs a window; theirs never refuses.
 *
 * <p>Admission requires completed failures plus lookups in flight, the new one included, to stay within the
 * threshold: a burst of concurrent guesses cannot look up more than {@code threshold} credentials before the
 * block. A failure is recorded before its reservation is handed back, so that sum never dips while a lookup
 * completes. Time is a parameter: no method reads a clock.
 *
 * <p>What the instance learned is kept locally, so that the common case costs the store nothing:
 * <ul>
 *   <li>a block, once seen (started here or read from the store), refuses its address until it ends without
 *   asking the store again;</li>
 *   <li>a credential that authenticated here within {@code remember-authenticated} is not a guess: its lookup
 *   needs no reservation (a block this instance knows of still refuses it);</li>
 *   <li>an address that failed here since its last success: a later success through a remembered credential
 *   still clears its failures (the one store call of that path).</li>
 * </ul>
 * Each memory holds at most {@value #LOCAL_MAX_KEYS} entries; when full of live entries it stops learning, and
 * the store answers as before (the safe direction).
 */
public final class AuthGuard {

    static final String PENDING_BUDGET = "auth-guard-pending";
    static final String FAILURES_BUDGET = "auth-guard-failures";
    static final String BLOCK_BUDGET = "auth-guard-block";
    private static final long SATURATED_RETRY_MILLIS = 1000;
    static final int LOCAL_MAX_KEYS = 10_000;

    private final RateLimitStore store;
    private final AuthGuardPolicy policy;
    private final Budget pending;
    private final Budget failures;
    private final Budget block;
    /** Address key to the end of a block this instance knows of. */
    private final ConcurrentHashMap<String, Long> blocks = new ConcurrentHashMap<>();
    /** The blocks among {@link #blocks} that were decided without the authoritative store. */
    private final ConcurrentHashMap<String, Long> degradedBlocks = new ConcurrentHashMap<>();
    /** Credential key to the end of the time it is remembered as authenticated here. */
    private final ConcurrentHashMap<String, Long> authenticated = new ConcurrentHashMap<>();
    /** Address key to when this instance last counted a failure for it (not cleared since). */
    private final ConcurrentHashMap<String, Long> failedHere = new ConcurrentHashMap<>();

    public AuthGuard(RateLimitStore store, AuthGuardPolicy policy) {
        this.store = Objects.requireNonNull(store, "store");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.pending = leaseBudget(PENDING_BUDGET, policy.maxPending(), policy.lookupLease());
        this.failures = leaseBudget(FAILURES_BUDGET, policy.threshold(), policy.window());
        this.block = leaseBudget(BLOCK_BUDGET, 1, policy.block());
    }

    /**
     * The counter key of a client address: a SHA-256, so whatever a proxy put into the address is never
     * written to a store, a log or a header as it came.
     */
    public static String addressKey(String remoteAddress) {
        String address = remoteAddress == null || remoteAddress.isEmpty() ? "unknown" : remoteAddress;
        return "addr:" + sha256Hex(address, 16);
    }

    private static String sha256Hex(String text, int bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }

    /**
     * The key a presented credential is remembered under: a SHA-256 of the whole header value, so that no
     * credential is kept as it came, and a variant of a known credential is a different (unknown) one.
     */
    public static String credentialKey(String authorizationHeader) {
        return sha256Hex(authorizationHeader == null ? "" : authorizationHeader, 32);
    }

    public AuthGuardPolicy policy() {
        return policy;
    }

    /**
     * Decides, before the lookup, whether a request from {@code addressKey} may have its credential looked
     * up. When the store cannot answer at all the request is admitted without a reservation (fail open).
     */
    public GuardAdmission admit(String addressKey, long nowMillis) {
        return admit(addressKey, null, nowMillis);
    }

    /**
     * Decides, before the lookup, whether a request from {@code addressKey} presenting the credential
     * {@code credentialKey} ({@link #credentialKey}; {@code null} if unknown) may have it looked up. A block this
     * instance knows of refuses, and a credential it saw authenticate is admitted, both without a store call;
     * anything else reserves the lookup in the store. When the store cannot answer at all the request is
     * admitted without a reservation (fail open).
     */
    public GuardAdmission admit(String addressKey, String credentialKey, long nowMillis) {
        long knownBlock = knownUntil(blocks, addressKey, nowMillis);
        if (knownBlock > 0) {
            return blocked(addressKey, knownBlock, nowMillis, knownUntil(degradedBlocks, addressKey, nowMillis) > 0);
        }
        if (credentialKey != null && knownUntil(authenticated, credentialKey, nowMillis) > 0) {
            return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, false, 0, credentialKey);
        }
        try {
            KeyState blockState = store.peek(block, addressKey, nowMillis);
            long blockedUntil = blockedUntil(blockState);
            if (blockedUntil > nowMillis) {
                rememberBlock(addressKey, blockedUntil, blockState.degraded(), nowMillis);
                return blocked(addressKey, blockedUntil, nowMillis, blockState.degraded());
            }
            Decision reservation = store.take(pending, addressKey, 1, true, nowMillis);
            if (!reservation.allowed()) {
                return saturated(addressKey, reservation.degraded());
            }
            Lease lease = reservation.lease().orElse(null);
            long inFlight = held(concurrencyOf(reservation.verdicts()));
            long completed = held(concurrencyOf(store.peek(failures, addressKey, nowMillis).bounds()));
            if (completed >= policy.threshold()) {
                release(lease, nowMillis);
                return blocked(addressKey, startBlock(addressKey, nowMillis), nowMillis, reservation.degraded());
            }
            if (completed + inFlight > policy.threshold()) {
                release(lease, nowMillis);
                return saturated(addressKey, reservation.degraded());
            }
            return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, lease, reservation.degraded(),
                    completed, credentialKey);
        } catch (RateLimitStoreException unavailable) {
            return new GuardAdmission(GuardAdmission.Outcome.ADMITTED, addressKey, 0, null, true, 0, credentialKey);
        }
    }

    /**
     * The lookup proved the credential wrong: counts one failure, and blocks once the threshold is reached.
     *
     * @return whether this failure reached the threshold (the block runs from now)
     */
    public boolean failed(GuardAdmission admission, long nowMillis) {
        requireAdmitted(admission);
        if (admission.credentialKey() != null) {
            // A credential remembered as good that fails now (revoked, expired) is a guess like any other.
            authenticated.remove(admission.credentialKey());
        }
        remember(failedHere, admission.addressKey(), nowMillis + policy.window().toMillis(), nowMillis);
        try {
            Decision failure = store.take(failures, admission.addressKey(), 1, true, nowMillis);
            BoundVerdict count = concurrencyOf(failure.verdicts());
            if (failure.allowed() && held(count) >= policy.threshold()) {
                startBlock(admission.addressKey(), nowMillis);
                return true;
            }
            if (!failure.allowed()) {
                // Already at the threshold: make sure the block exists (another instance may have died before).
                startBlock(admission.addressKey(), nowMillis);
            }
            return false;
        } catch (RateLimitStoreException unavailable) {
            // Nothing can count this failure; the reservation below still goes back.
            return false;
        } finally {
            release(admission.reservation(), nowMillis);
        }
    }

    /**
     * The lookup proved the credential right: clears the address's completed failures (those seen when it was
     * admitted; a failure that completed during this lookup was pending then and stays, the safe direction).
     * Reservations of other lookups still in flight stay, and so does a block already started.
     */
    public void succeeded(GuardAdmission admission, long nowMillis) {
        requireAdmitted(admission);
        if (admission.credentialKey() != null && policy.rememberAuthenticated().toMillis() > 0) {
            remember(authenticated, admission.credentialKey(),
                    nowMillis + policy.rememberAuthenticated().toMillis(), nowMillis);
        }
        boolean failedHereSince = failedHere.remove(admission.addressKey()) != null;
        try {
            if (admission.failuresSeen() > 0 || failedHereSince) {
                store.reset(failures, admission.addressKey());
            }
        } catch (RateLimitStoreException unavailable) {
            // The failures stay counted: the safe direction.
        } finally {
            release(admission.reservation(), nowMillis);
        }
    }

    /** The lookup ended without a verdict on the credential (it threw, or none took place): hands back the reservation only. */
    public void abandoned(GuardAdmission admission, long nowMillis) {
        requireAdmitted(admission);
        release(admission.reservation(), nowMillis);
    }

    /** Reads an address's failures, lookups in flight and block without counting anything. */
    public GuardState state(String addressKey, long nowMillis) {
        long blockedUntil = blockedUntil(store.peek(block, addressKey, nowMillis));
        long completed = held(concurrencyOf(store.peek(failures, addressKey, nowMillis).bounds()));
        long inFlight = held(concurrencyOf(store.peek(pending, addressKey, nowMillis).bounds()));
        return new GuardState(completed, inFlight, blockedUntil > nowMillis ? blockedUntil : 0);
    }

    /** Starts the block (or finds the one already running) and drops the failures it replaces; returns its end. */
    private long startBlock(String addressKey, long nowMillis) {
        Decision started = store.take(block, addressKey, 1, true, nowMillis);
        long until = started.lease().map(Lease::expiresAtMillis)
                .orElseGet(() -> concurrencyOf(started.verdicts()).resetAtMillis());
        rememberBlock(addressKey, until, started.degraded(), nowMillis);
        failedHere.remove(addressKey);
        try {
            store.reset(failures, addressKey);
        } catch (RateLimitStoreException unavailable) {
            // Left over failures expire on their own; the block is what matters.
        }
        return until;
    }

    private void rememberBlock(String addressKey, long until, boolean degraded, long nowMillis) {
        remember(blocks, addressKey, until, nowMillis);
        if (degraded) {
            remember(degradedBlocks, addressKey, until, nowMillis);
        }
        else {
            degradedBlocks.remove(addressKey);
        }
    }

    /** The end of an entry still running at {@code nowMillis}, else 0 (and an ended entry is dropped). */
    private static long knownUntil(ConcurrentHashMap<String, Long> memory, String key, long nowMillis) {
        Long until = memory.get(key);
        if (until == null) {
            return 0;
        }
        if (until > nowMillis) {
            return until;
        }
        memory.remove(key, until);
        return 0;
    }

    /** Remembers an entry until {@code until}, unless the memory is full of entries still running. */
    private static void remember(ConcurrentHashMap<String, Long> memory, String key, long until, long nowMillis) {
        if (until <= nowMillis) {
            return;
        }
        if (memory.size() >= LOCAL_MAX_KEYS && !memory.containsKey(key)) {
            memory.values().removeIf(end -> end <= nowMillis);
            if (memory.size() >= LOCAL_MAX_KEYS) {
                return;
            }
        }
        memory.merge(key, until, Math::max);
    }

    private void release(Lease lease, long nowMillis) {
        if (lease == null) {
            return;
        }
        try {
            store.release(lease, nowMillis);
        } catch (RateLimitStoreException unavailable) {
            // The reservation expires by itself after the lookup lease.
        }
    }

    private GuardAdmission blocked(String addressKey, long until, long nowMillis, boolean degraded) {
        return new GuardAdmission(GuardAdmission.Outcome.BLOCKED, addressKey, Math.max(1, until - nowMillis), null,
                degraded, 0);
    }

    private static GuardAdmission saturated(String addressKey, boolean degraded) {
        return new GuardAdmission(GuardAdmission.Outcome.SATURATED, addressKey, SATURATED_RETRY_MILLIS, null, degraded,
                0);
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

    private static void requireAdmitted(GuardAdmission admission) {
        if (!Objects.requireNonNull(admission, "admission").admitted()) {
            throw new IllegalArgumentException("only an admitted request has a lookup to report on");
        }
    }

    private static Budget leaseBudget(String name, int leases, Duration leaseLength) {
        // The SPI needs a window on every budget; this one is never the bound that refuses.
        return Budget.builder(name)
                .window("calls", Integer.MAX_VALUE, Duration.ofSeconds(1))
                .concurrency(leases, leaseLength)
                .build();
    }
}
