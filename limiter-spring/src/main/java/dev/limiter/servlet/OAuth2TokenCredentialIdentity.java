package dev.limiter.servlet;

import java.security.Principal;

import dev.limiter.core.Sha256;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;

import org.springframework.security.oauth2.core.AbstractOAuth2Token;
import org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken;

/**
 * A token authentication of Spring Security's resource server
 * ({@code BearerTokenAuthentication} for an opaque token, or any other
 * {@link AbstractOAuth2TokenAuthenticationToken}): keyed on the token value the
 * authentication carries, which is the exact text the introspection endpoint accepted;
 * counted by principal on the authentication's name. A JWT is left to
 * {@link JwtCredentialIdentity}, which runs first.
 *
 * <p>
 * Only loaded when spring-security-oauth2-resource-server is on the class path.
 */
public final class OAuth2TokenCredentialIdentity implements CredentialIdentity {

	@Override
	public CallerKey identify(Principal authenticated) {
		if (!(authenticated instanceof AbstractOAuth2TokenAuthenticationToken<?> authentication)) {
			return null;
		}
		Object raw = authentication.getToken();
		if (!(raw instanceof AbstractOAuth2Token token) || token.getTokenValue() == null) {
			return null;
		}
		return CallerKey.authenticated(DefaultKeyResolver.TOKEN_PREFIX + Sha256.base64Url(token.getTokenValue()),
				DefaultKeyResolver.principalKey(authentication).value(), authentication);
	}

}
