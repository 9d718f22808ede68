package dev.limiter.servlet;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URL;
import java.security.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Sha256;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;

/**
 * A JWT that Spring Security's resource server decoded and verified
 * ({@code JwtAuthenticationToken}): keyed on the decoded token, never on its text.
 *
 * <p>
 * By credential, {@code t:} + SHA-256 of a canonical encoding of the JOSE header and the
 * claims as the decoder established them (keys sorted, every value tagged with its type
 * and length). The signature is left out: the spellings a decoder accepts as one token
 * ({@code =} padding, non-canonical trailing bits, the standard base64 alphabet in place
 * of the url-safe one) differ only in the signature's text, while the header and payload
 * text are fixed by the signature itself. By principal, {@code p:} + SHA-256 of
 * {@code "jwt" NUL issuer NUL subject} (the authentication's name when the token has no
 * {@code sub}). See docs/adr/0006-credential-identity.md.
 *
 * <p>
 * Only loaded when spring-security-oauth2-resource-server and spring-security-oauth2-jose
 * are on the class path.
 */
public final class JwtCredentialIdentity implements CredentialIdentity {

	/** Stands in for a null map value, which {@link Map#entry} refuses. */
	private static final Object NULL = new Object();

	@Override
	public CallerKey identify(Principal authenticated) {
		if (!(authenticated instanceof AbstractOAuth2TokenAuthenticationToken<?> authentication)
				|| !(authentication.getToken() instanceof Jwt jwt)) {
			return null;
		}
		return CallerKey.authenticated(credentialKey(jwt), principalKey(jwt, authentication), authentication);
	}

	/** {@code t:} + SHA-256 of the canonical header and claims. */
	public static String credentialKey(Jwt jwt) {
		StringBuilder canonical = new StringBuilder(512).append("jwt");
		encode(jwt.getHeaders(), canonical);
		encode(jwt.getClaims(), canonical);
		return DefaultKeyResolver.TOKEN_PREFIX + Sha256.base64Url(canonical.toString());
	}

	/** {@code p:} + SHA-256 of {@code "jwt" NUL issuer NUL subject}. */
	public static String principalKey(Jwt jwt, Principal authentication) {
		Object issuer = jwt.getClaims().get("iss");
		String subject = jwt.getClaims().get("sub") != null ? String.valueOf(jwt.getClaims().get("sub"))
				: authentication.getName();
		return DefaultKeyResolver.PRINCIPAL_PREFIX + Sha256.base64Url(
				"jwt\u0000" + (issuer == null ? "" : issuer.toString()) + "\u0000" + (subject == null ? "" : subject));
	}

	/**
	 * A text that two values share only when they are equal, whatever JSON spelling they
	 * were decoded from.
	 */
	static void encode(Object value, StringBuilder out) {
		if (value == null) {
			out.append('n');
		}
		else if (value instanceof Map<?, ?> map) {
			List<Map.Entry<String, Object>> entries = new ArrayList<>(map.size());
			map.forEach((key, item) -> entries.add(Map.entry(String.valueOf(key), item == null ? NULL : item)));
			entries.sort(Map.Entry.comparingByKey());
			out.append('m').append(entries.size()).append('{');
			for (Map.Entry<String, Object> entry : entries) {
				string(entry.getKey(), out);
				encode(entry.getValue() == NULL ? null : entry.getValue(), out);
			}
			out.append('}');
		}
		else if (value instanceof Collection<?> collection) {
			out.append('l').append(collection.size()).append('[');
			for (Object item : collection) {
				encode(item, out);
			}
			out.append(']');
		}
		else if (value instanceof Object[] array) {
			encode(Arrays.asList(array), out);
		}
		else if (value instanceof Instant instant) {
			out.append('i').append(instant.getEpochSecond()).append('.').append(instant.getNano()).append(';');
		}
		else if (value instanceof Boolean bool) {
			out.append(bool ? 'T' : 'F');
		}
		else if (value instanceof Number number) {
			out.append('d');
			string(number(number), out);
		}
		else if (value instanceof URL || value instanceof URI || value instanceof CharSequence) {
			out.append('s');
			string(value.toString(), out);
		}
		else {
			out.append('o');
			string(value.toString(), out);
		}
	}

	private static String number(Number number) {
		try {
			return new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
		}
		catch (NumberFormatException ex) {
			return number.toString();
		}
	}

	private static void string(String value, StringBuilder out) {
		out.append(value.length()).append(':').append(value);
	}

}
