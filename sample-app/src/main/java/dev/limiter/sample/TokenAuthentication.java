package dev.limiter.sample;

import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** An authenticated opaque token. Holds no credential: the raw token is not kept past authentication. */
public class TokenAuthentication extends AbstractAuthenticationToken {

    private final TokenService.TokenHolder holder;

    public TokenAuthentication(TokenService.TokenHolder holder) {
        super(List.of(new SimpleGrantedAuthority(holder.trial() ? "ROLE_TRIAL" : "ROLE_USER")));
        this.holder = holder;
        setAuthenticated(true);
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
