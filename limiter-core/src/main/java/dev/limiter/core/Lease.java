package dev.limiter.core;

import java.util.Objects;

/**
 * A concurrency slot held by one expensive request: a handle that {@link #release
 * releases itself} to the store that issued it. If nobody releases it, it expires by
 * itself at {@code expiresAtMillis}.
 *
 * <p>
 * A store creates its leases unbound ({@link #Lease(String, String, String, long)});
 * whoever hands a decision out of a stack of stores binds the lease to the store that
 * must take it back ({@link #issuedBy}). Two leases are equal when they name the same
 * slot, whoever issued them.
 *
 * @param budget the budget's name
 * @param key the counter key the lease was taken under
 * @param id unique among the leases of that key
 * @param expiresAtMillis when the lease frees itself, epoch milliseconds
 * @param issuer what the lease releases itself to (the store that issued it);
 * {@code null} until a store bound it
 */
public record Lease(String budget, String key, String id, long expiresAtMillis, Lease.Issuer issuer) {

	/**
	 * What takes a lease back: the store that issued it. A lease knows only this much of
	 * it, so that a lease (and the decision carrying it) never depends on the store's
	 * type; every {@link RateLimitStore} is one.
	 */
	public interface Issuer {

		/** Hands the lease back; twice, or after it expired, is a no-op. */
		void release(Lease lease, long nowMillis);

		/**
		 * Keeps the lease until {@code expiresAtMillis} if it is still held.
		 * @return whether it was still held
		 */
		boolean renew(Lease lease, long expiresAtMillis, long nowMillis);

	}

	public Lease {
		Objects.requireNonNull(budget, "budget");
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(id, "id");
	}

	/** A lease no store has bound yet. */
	public Lease(String budget, String key, String id, long expiresAtMillis) {
		this(budget, key, id, expiresAtMillis, null);
	}

	/** The same slot, released to {@code issuer}. */
	public Lease issuedBy(Lease.Issuer issuer) {
		return new Lease(budget, key, id, expiresAtMillis, Objects.requireNonNull(issuer, "issuer"));
	}

	/**
	 * Hands the slot back to the store that issued it ({@link Issuer#release}); releasing
	 * twice, or after it expired, is a no-op.
	 * @throws IllegalStateException if no store bound this lease
	 */
	public void release(long nowMillis) {
		if (issuer == null) {
			throw new IllegalStateException("lease " + id + " of budget '" + budget + "' names no issuing store");
		}
		issuer.release(this, nowMillis);
	}

	/**
	 * Asks the store that issued this lease to keep it until {@code expiresAtMillis}
	 * ({@link Issuer#renew}); the lease's own {@link #expiresAtMillis} stays what it was
	 * when issued.
	 * @return whether the lease was still held
	 * @throws IllegalStateException if no store bound this lease
	 */
	public boolean renew(long expiresAtMillis, long nowMillis) {
		if (issuer == null) {
			throw new IllegalStateException("lease " + id + " of budget '" + budget + "' names no issuing store");
		}
		return issuer.renew(this, expiresAtMillis, nowMillis);
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Lease l && budget.equals(l.budget) && key.equals(l.key) && id.equals(l.id)
				&& expiresAtMillis == l.expiresAtMillis;
	}

	@Override
	public int hashCode() {
		return Objects.hash(budget, key, id, expiresAtMillis);
	}

	@Override
	public String toString() {
		return "Lease[budget=" + budget + ", key=" + key + ", id=" + id + ", expiresAtMillis=" + expiresAtMillis + "]";
	}
}
