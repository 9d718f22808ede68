package dev.limiter.decision;

import java.security.Principal;
import java.util.Base64;
import java.util.List;

import dev.limiter.core.Sha256;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.RateLimitCredential;

/**
 * Who a request is counted as, from what authentication established, whichever web stack
 * carried it (ADR 0006): an authenticated principal on the hash of its credential
 * ({@code t:}) when one is known, else on the hash of its name ({@code p:}); a caller
 * without one on its address ({@code a:}, an IP literal as it is, anything else hashed).
 */
public final class CallerKeys {

	public static final String TOKEN_PREFIX = "t:";

	public static final String PRINCIPAL_PREFIX = "p:";

	public static final String ADDRESS_PREFIX = "a:";

	private final List<CredentialIdentity> identities;

	/**
	 * @param identities asked in order for the key of an authenticated principal; the
	 * first non-null answer wins
	 */
	public CallerKeys(List<CredentialIdentity> identities) {
		this.identities = List.copyOf(identities);
	}

	/** A caller without an authenticated principal, counted by its address. */
	public static CallerKey anonymous(String remoteAddress) {
		return CallerKey.anonymous(addressCounterKey(remoteAddress));
	}

	/**
	 * The caller key of an authenticated principal: a {@link RateLimitCredential}'s
	 * digest, else the first {@link CredentialIdentity}'s answer, else the hash of the
	 * principal's name.
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
	public static String addressKey(String address) {
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
