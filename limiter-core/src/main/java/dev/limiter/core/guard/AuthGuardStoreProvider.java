package dev.limiter.core.guard;

/**
 * A {@link dev.limiter.core.RateLimitStore} that also offers the guard its own store,
 * doing each guard step in one call (one round trip on a remote store) instead of the
 * several ordinary store calls {@link StoreBackedAuthGuardStore} needs.
 */
public interface AuthGuardStoreProvider {

	/**
	 * A guard store applying {@code policy}, sharing this store's connection and
	 * timeouts.
	 */
	AuthGuardStore authGuardStore(AuthGuardPolicy policy);

}
