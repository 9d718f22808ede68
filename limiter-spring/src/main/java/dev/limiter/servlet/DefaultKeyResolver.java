package dev.limiter.servlet;

import java.security.Principal;
import java.util.List;
import java.util.function.Function;

import dev.limiter.decision.CallerKeys;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitCredential;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Keys a request on what authentication established, never on request text: an
 * authenticated request on the hash of its credential ({@code t:}) when one is known (a
 * {@link CredentialIdentity}, or a {@link RateLimitCredential} the authentication
 * exposes), else on the hash of its principal's name ({@code p:}); a request without an
 * authenticated principal on {@code request.getRemoteAddr()} ({@code a:}).
 *
 * <p>
 * The {@code Authorization} header is not read: one that played no part in authenticating
 * the request (a made-up bearer token beside an API key or a session) leaves the key
 * exactly as it would be without it, and every spelling of a credential that
 * authentication accepts as the same credential gets the same key.
 */
public class DefaultKeyResolver implements KeyResolver {

	public static final String TOKEN_PREFIX = CallerKeys.TOKEN_PREFIX;

	public static final String PRINCIPAL_PREFIX = CallerKeys.PRINCIPAL_PREFIX;

	public static final String ADDRESS_PREFIX = CallerKeys.ADDRESS_PREFIX;

	private final Function<HttpServletRequest, Principal> authenticatedPrincipal;

	private final CallerKeys keys;

	/**
	 * @param authenticatedPrincipal finds the principal that authentication accepted,
	 * {@code null} when the request is unauthenticated (or anonymous)
	 */
	public DefaultKeyResolver(Function<HttpServletRequest, Principal> authenticatedPrincipal) {
		this(authenticatedPrincipal, List.of());
	}

	/**
	 * @param identities asked in order for the key of an authenticated principal; the
	 * first non-null answer wins
	 */
	public DefaultKeyResolver(Function<HttpServletRequest, Principal> authenticatedPrincipal,
			List<CredentialIdentity> identities) {
		this.authenticatedPrincipal = authenticatedPrincipal;
		this.keys = new CallerKeys(identities);
	}

	@Override
	public CallerKey resolve(HttpServletRequest request) {
		Principal principal = authenticatedPrincipal.apply(request);
		if (principal == null) {
			return CallerKeys.anonymous(request.getRemoteAddr());
		}
		return identify(principal);
	}

	/**
	 * The caller key of an authenticated principal, by the same rules as
	 * {@link #resolve}: for code that has the {@code Authentication} in hand (such as an
	 * authentication-failure guard) and must key it as the limiter does.
	 */
	public CallerKey identify(Principal principal) {
		return keys.identify(principal);
	}

	/**
	 * {@code t:} + the credential's digest, and {@code p:} + the principal's name to
	 * count by principal.
	 */
	public static CallerKey credentialKey(RateLimitCredential credential, Principal principal) {
		return CallerKeys.credentialKey(credential, principal);
	}

	/** {@code p:} + the hash of the principal's name, whichever way the budget counts. */
	public static CallerKey principalKey(Principal principal) {
		return CallerKeys.principalKey(principal);
	}

	/**
	 * The counter key a request without a credential from {@code remoteAddress} is
	 * counted by ({@code a:} + the address): for a {@link CredentialIdentity} that counts
	 * a credential as the address it belongs to (a trial token as the address that minted
	 * it, say).
	 */
	public static String addressCounterKey(String remoteAddress) {
		return CallerKeys.addressCounterKey(remoteAddress);
	}

	static String addressKey(String address) {
		return CallerKeys.addressKey(address);
	}

}
