package dev.limiter.sample;

import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An authenticated trial token (minted by {@code POST /try}). Unlike
 * {@link TokenAuthentication} it hands the limiter no credential digest: a trial token is
 * counted as the client address that minted it (the {@code CredentialIdentity} in
 * {@link SecurityConfiguration}), so every trial token of one address shares that
 * address's anonymous counters, and minting more buys nothing.
 */
public class TrialTokenAuthentication extends AbstractAuthenticationToken {

	private final TokenService.TokenHolder holder;

	public TrialTokenAuthentication(TokenService.TokenHolder holder) {
		super(List.of(new SimpleGrantedAuthority("ROLE_TRIAL")));
		if (!holder.trial()) {
			throw new IllegalArgumentException("not a trial token: " + holder.name());
		}
		this.holder = holder;
		setAuthenticated(true);
	}

	/** The client address that minted this token. */
	public String mintedBy() {
		return holder.mintedBy();
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
