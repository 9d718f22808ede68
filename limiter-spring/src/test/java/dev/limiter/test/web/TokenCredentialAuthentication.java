package dev.limiter.test.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import dev.limiter.spring.RateLimitCredential;

import org.springframework.security.authentication.AbstractAuthenticationToken;

/**
 * A test application's own opaque-token authentication: named after its holder, and
 * exposing the token it was established from through {@link RateLimitCredential}, so the
 * limiter keys it {@code t:} + SHA-256 of the token.
 */
public final class TokenCredentialAuthentication extends AbstractAuthenticationToken implements RateLimitCredential {

	private final String name;

	private final byte[] tokenSha256;

	public TokenCredentialAuthentication(String name, String token) {
		super(List.of());
		this.name = name;
		try {
			this.tokenSha256 = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
		setAuthenticated(true);
	}

	@Override
	public byte[] rateLimitCredentialSha256() {
		return tokenSha256.clone();
	}

	@Override
	public Object getCredentials() {
		return null;
	}

	@Override
	public Object getPrincipal() {
		return name;
	}

}
