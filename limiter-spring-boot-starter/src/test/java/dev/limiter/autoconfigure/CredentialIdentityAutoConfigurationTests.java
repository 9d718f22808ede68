package dev.limiter.autoconfigure;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.limiter.core.Sha256;
import dev.limiter.servlet.JwtCredentialIdentity;
import dev.limiter.servlet.OAuth2TokenCredentialIdentity;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.spring.KeyBy;
import dev.limiter.spring.KeyResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthentication;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which credential identities the starter contributes, and that the OAuth2 ones stay
 * optional.
 */
class CredentialIdentityAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class));

	@AfterEach
	void clearContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void identitiesWhenResourceServerIsPresentShouldKeyJwtAndOpaqueTokens() {
		runner.run(context -> {
			assertThat(context.getBeansOfType(CredentialIdentity.class).values())
				.hasAtLeastOneElementOfType(JwtCredentialIdentity.class)
				.hasAtLeastOneElementOfType(OAuth2TokenCredentialIdentity.class);
			KeyResolver resolver = context.getBean(KeyResolver.class);

			SecurityContextHolder.getContext().setAuthentication(new JwtAuthenticationToken(jwt("a.b.c"), List.of()));
			CallerKey plain = resolver.resolve(new MockHttpServletRequest());
			SecurityContextHolder.getContext().setAuthentication(new JwtAuthenticationToken(jwt("a.b.c=="), List.of()));
			CallerKey padded = resolver.resolve(new MockHttpServletRequest());
			assertThat(padded.value()).isEqualTo(plain.value()).startsWith("t:");
			assertThat(plain.value(KeyBy.PRINCIPAL))
				.isEqualTo("p:" + Sha256.base64Url("jwt\u0000https://issuer.example\u0000alice"));

			OAuth2AccessToken opaque = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, "opaque-1",
					Instant.now(), Instant.now().plusSeconds(60));
			SecurityContextHolder.getContext()
				.setAuthentication(new BearerTokenAuthentication(
						new OAuth2IntrospectionAuthenticatedPrincipal("alice", Map.of("sub", "alice"), List.of()),
						opaque, List.of()));
			assertThat(resolver.resolve(new MockHttpServletRequest()).value())
				.isEqualTo("t:" + Sha256.base64Url("opaque-1"));
		});
	}

	@Test
	void starterWhenResourceServerIsAbsentShouldStartAndKeyOnThePrincipal() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.security.oauth2")).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeansOfType(CredentialIdentity.class).values())
				.noneMatch(identity -> identity.getClass().getSimpleName().contains("OAuth2")
						|| identity.getClass().getSimpleName().contains("Jwt"));
			SecurityContextHolder.getContext()
				.setAuthentication(UsernamePasswordAuthenticationToken.authenticated("alice", null, List.of()));
			MockHttpServletRequest request = new MockHttpServletRequest();
			request.addHeader("Authorization", "Bearer made-up");
			assertThat(context.getBean(KeyResolver.class).resolve(request).value())
				.isEqualTo("p:" + Sha256.base64Url("alice"));
		});
	}

	@Test
	void starterWhenOnlyJoseIsAbsentShouldStillKeyOpaqueTokens() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.security.oauth2.jwt")).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeansOfType(CredentialIdentity.class).values())
				.hasAtLeastOneElementOfType(OAuth2TokenCredentialIdentity.class)
				.noneMatch(JwtCredentialIdentity.class::isInstance);
		});
	}

	@Test
	void keyByWhenSetGloballyOrPerBudgetShouldFollowThePropertiesAndDefaultToCredential() {
		runner.run(context -> assertThat(context.getBean(BudgetOptions.class).keyBy("standard"))
			.isEqualTo(KeyBy.CREDENTIAL));
		runner
			.withPropertyValues("limiter.key-by=principal", "limiter.budgets.per-token.key-by=credential",
					"limiter.budgets.per-token.windows.minute.limit=5",
					"limiter.budgets.per-token.windows.minute.duration=1m")
			.run(context -> {
				BudgetOptions options = context.getBean(BudgetOptions.class);
				assertThat(options.keyBy("standard")).isEqualTo(KeyBy.PRINCIPAL);
				assertThat(options.keyBy("per-token")).isEqualTo(KeyBy.CREDENTIAL);
			});
	}

	@Test
	void keyByWhenUnknownShouldFailNamingTheProperty() {
		runner.withPropertyValues("limiter.budgets.standard.key-by=subject").run(context -> {
			assertThat(context).hasFailed();
			// Spring Boot's bind failure analyzer turns this into a start-up report
			// naming the property.
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("Failed to bind properties under 'limiter.budgets.standard.key-by'")
				.hasStackTraceContaining("subject");
		});
	}

	private static Jwt jwt(String tokenValue) {
		return Jwt.withTokenValue(tokenValue)
			.header("alg", "HS256")
			.issuer("https://issuer.example")
			.subject("alice")
			.claim("jti", "j-1")
			.issuedAt(Instant.ofEpochSecond(1_900_000_000L))
			.expiresAt(Instant.ofEpochSecond(1_900_000_600L))
			.build();
	}

}
