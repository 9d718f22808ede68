package dev.limiter.sample;

import java.util.HexFormat;
import java.util.List;

import dev.limiter.spring.RateLimitCredential;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An authenticated opaque token. Holds no credential: the raw token is not kept past
 * authentication, only the SHA-256 the token table is keyed on, which it hands to the
 * limiter ({@link RateLimitCredential}) so the counter key is {@code t:} + base64url of
 * that digest, the key the README's one-liner computes.
 */
public class TokenAuthentication extends AbstractAuthenticationToken implements RateLimitCredential {

	/**
	 * Reads and resets the limiter's counters (the actuator); the demo token has it,
	 * trial tokens do not.
	 */
	public static final String OPERATOR = "ROLE_OPERATOR";

	private final TokenService.TokenHolder holder;

	public TokenAuthentication(TokenService.TokenHolder holder) {
		super(authorities(holder));
		this.holder = holder;
		setAuthenticated(true);
	}

	private static List<GrantedAuthority> authorities(TokenService.TokenHolder holder) {
		return holder.trial() ? List.of(new SimpleGrantedAuthority("ROLE_TRIAL"))
				: List.of(new SimpleGrantedAuthority("ROLE_USER"), new SimpleGrantedAuthority(OPERATOR));
	}

	@Override
	public byte[] rateLimitCredentialSha256() {
		return HexFormat.of().parseHex(holder.tokenHash());
	}

	public boolean isTrial() {
		return holder.trial();
	}

	@Override
	public Object getCredentials() {
		return null;
	}

	@Override
	public Object getPrincipal() {
		return holder.name();
	}

}
