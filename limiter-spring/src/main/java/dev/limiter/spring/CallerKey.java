package dev.limiter.spring;

import java.security.Principal;
import java.util.Objects;

/**
 * Who a request is counted as.
 *
 * @param value the counter key by credential ({@link KeyBy#CREDENTIAL}): a hash or an
 * address with a kind prefix ({@code t:}, {@code p:}, {@code a:}); never a raw credential
 * @param authenticated whether the request passed authentication; unauthenticated callers
 * are always counted against the anonymous budget
 * @param principal the authenticated principal, {@code null} when unauthenticated
 * @param principalValue the counter key by principal ({@link KeyBy#PRINCIPAL}); the same
 * as {@code value} when the caller has no credential apart from its principal (or no
 * principal at all)
 */
public record CallerKey(String value, boolean authenticated, Principal principal, String principalValue) {

	public CallerKey {
		Objects.requireNonNull(value, "value");
		if (principalValue == null) {
			principalValue = value;
		}
		if (authenticated && principal == null) {
			throw new IllegalArgumentException("an authenticated caller needs its principal");
		}
	}

	public CallerKey(String value, boolean authenticated, Principal principal) {
		this(value, authenticated, principal, value);
	}

	/** A caller without a credential, keyed on its address. */
	public static CallerKey anonymous(String value) {
		return new CallerKey(value, false, null, value);
	}

	/**
	 * An authenticated caller counted by {@code value} whichever {@link KeyBy} its budget
	 * uses.
	 */
	public static CallerKey authenticated(String value, Principal principal) {
		return new CallerKey(value, true, principal, value);
	}

	/**
	 * An authenticated caller with a credential key and a separate key for who holds the
	 * credential.
	 */
	public static CallerKey authenticated(String credentialValue, String principalValue, Principal principal) {
		return new CallerKey(credentialValue, true, principal, principalValue);
	}

	/** The key this caller is counted by under {@code keyBy}. */
	public String value(KeyBy keyBy) {
		return keyBy == KeyBy.PRINCIPAL ? principalValue : value;
	}

	/** This caller with {@link #value()} chosen by {@code keyBy}. */
	public CallerKey keyedBy(KeyBy keyBy) {
		if (keyBy != KeyBy.PRINCIPAL || principalValue.equals(value)) {
			return this;
		}
		return new CallerKey(principalValue, authenticated, principal, principalValue);
	}

	@Override
	public String toString() {
		// The value is already a hash or an address; the principal is left out so its
		// name never reaches a log.
		return "CallerKey[" + value + (authenticated ? ", authenticated" : ", anonymous") + "]";
	}
}
