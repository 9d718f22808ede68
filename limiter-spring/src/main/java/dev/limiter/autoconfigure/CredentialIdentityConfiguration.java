package dev.limiter.autoconfigure;

import dev.limiter.servlet.AuthenticationCredentialIdentity;
import dev.limiter.servlet.JwtCredentialIdentity;
import dev.limiter.servlet.OAuth2TokenCredentialIdentity;
import dev.limiter.spring.CredentialIdentity;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * The {@link CredentialIdentity} beans that key a caller by the credential Spring
 * Security established, in the order they are asked: an authentication whose principal
 * exposes its credential, an OAuth2 token, a decoded JWT. One set for both web stacks:
 * the servlet and the reactive auto-configurations import it, since an
 * {@code Authentication} names its credential the same way whichever chain built it. Each
 * bean backs off to one of the application's own under its name.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.security.core.Authentication")
public class CredentialIdentityConfiguration {

	private static final String OAUTH2_TOKEN_AUTHENTICATION = "org.springframework.security.oauth2.server.resource.authentication.AbstractOAuth2TokenAuthenticationToken";

	/** An authentication whose principal exposes its credential. */
	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE - 10)
	@ConditionalOnMissingBean(name = "limiterAuthenticationCredentialIdentity")
	CredentialIdentity limiterAuthenticationCredentialIdentity() {
		return new AuthenticationCredentialIdentity();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = OAUTH2_TOKEN_AUTHENTICATION)
	static class OAuth2CredentialIdentityConfiguration {

		/** An opaque (or any other) OAuth2 token authentication: its token value. */
		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE - 20)
		@ConditionalOnMissingBean(name = "limiterOAuth2TokenCredentialIdentity")
		CredentialIdentity limiterOAuth2TokenCredentialIdentity() {
			return new OAuth2TokenCredentialIdentity();
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = "org.springframework.security.oauth2.jwt.Jwt")
		static class JwtCredentialIdentityConfiguration {

			/**
			 * A decoded JWT: its canonical header and claims, or its issuer and subject.
			 */
			@Bean
			@Order(Ordered.LOWEST_PRECEDENCE - 30)
			@ConditionalOnMissingBean(name = "limiterJwtCredentialIdentity")
			CredentialIdentity limiterJwtCredentialIdentity() {
				return new JwtCredentialIdentity();
			}

		}

	}

}
