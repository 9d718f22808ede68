package dev.limiter.servlet;

import java.security.Principal;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import dev.limiter.core.Sha256;
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

	public static final String TOKEN_PREFIX = "t:";

	public static final String PRINCIPAL_PREFIX = "p:";

	public static final String ADDRESS_PREFIX = "a:";

	private final Function<HttpServletRequest, Principal> authenticatedPrincipal;

	private final List<CredentialIdentity> identities;

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
		this.identities = List.copyOf(identities);
	}

	@Override
	public CallerKey resolve(HttpServletRequest request) {
		Principal principal = authenticatedPrincipal.apply(request);
		if (principal == null) {
			return CallerKey.anonymous(addressCounterKey(request.getRemoteAddr()));
		}
		return identify(principal);
	}

	/**
	 * The caller key of an authenticated principal, by the same rules as
	 * {@link #resolve}: for code that has the {@code Authentication} in hand (such as an
	 * authentication-failure guard) and must key it as the limiter does.
	 */
	public CallerKey identify(Principal principal) {
		if (principal instanceof RateLimitCredential credential) {
			return credentialKey(credential, principal);
		}
		for (CredentialIdentity identity : identities) {
			CallerKey key = identity.identify(principal);
			if (key != null) {
				return key;
			}
		}
		return principalKey(principal);
	}

	/**
	 * {@code t:} + the credential's digest, and {@code p:} + the principal's name to
	 * count by principal.
	 */
	public static CallerKey credentialKey(RateLimitCredential credential, Principal principal) {
		byte[] digest = credential.rateLimitCredentialSha256();
		if (digest == null || digest.length != 32) {
			throw new IllegalStateException(principal.getClass().getName()
					+ ".rateLimitCredentialSha256() must return the 32 bytes of a SHA-256");
		}
		return CallerKey.authenticated(TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(digest),
				principalKey(principal).value(), principal);
	}

	/** {@code p:} + the hash of the principal's name, whichever way the budget counts. */
	public static CallerKey principalKey(Principal principal) {
		String name = principal.getName() == null ? "" : principal.getName();
		return CallerKey.authenticated(PRINCIPAL_PREFIX + Sha256.base64Url(name), principal);
	}

	/**
	 * The counter key a request without a credential from {@code remoteAddress} is
	 * counted by ({@code a:} + the address): for a {@link CredentialIdentity} that counts
	 * a credential as the address it belongs to (a trial token as the address that minted
	 * it, say).
	 */
	public static String addressCounterKey(String remoteAddress) {
		return ADDRESS_PREFIX + addressKey(remoteAddress);
	}

	/**
	 * An IP literal as it is; anything else (a proxy header forwarded verbatim can make
	 * the address any text of any length) as its hash, so a key stays short and never
	 * carries request input into a store or a log.
	 */
	static String addressKey(String address) {
		if (isIpLiteral(address)) {
			return address;
		}
		return "h:" + Sha256.base64Url(String.valueOf(address));
	}

	/**
	 * 1 to 45 characters of {@code [0-9A-Fa-f:.]}: what an IPv4 or IPv6 literal is made
	 * of. A loop, not a regular expression: it runs on every anonymous request.
	 */
	private static boolean isIpLiteral(String address) {
		if (address == null || address.isEmpty() || address.length() > 45) {
			return false;
		}
		for (int i = 0; i < address.length(); i++) {
			char c = address.charAt(i);
			boolean allowed = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':'
					|| c == '.';
			if (!allowed) {
				return false;
			}
		}
		return true;
	}

}
