package dev.limiter.servlet;

import java.util.List;

import dev.limiter.core.Sha256;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyBy;
import dev.limiter.test.web.TokenCredentialAuthentication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import static org.assertj.core.api.Assertions.assertThat;

class DefaultKeyResolverTests {

	private final DefaultKeyResolver resolver = new DefaultKeyResolver(SecurityContextPrincipals::authenticated);

	@AfterEach
	void clearContext() {
		SecurityContextHolder.clearContext();
	}

	@Test
	void authenticationWhenItExposesItsCredentialShouldBeKeyedOnTheSha256OfTheToken() {
		SecurityContextHolder.getContext().setAuthentication(new TokenCredentialAuthentication("alice", "sp_abc"));
		CallerKey caller = resolver.resolve(request("Bearer sp_abc"));
		assertThat(caller.authenticated()).isTrue();
		// SHA-256("sp_abc"), base64url without padding
		assertThat(caller.value()).isEqualTo("t:" + Sha256.base64Url("sp_abc"))
			.hasSize(2 + 43)
			.doesNotContain("sp_abc");
		assertThat(caller.value(KeyBy.PRINCIPAL)).isEqualTo("p:" + Sha256.base64Url("alice"));
		assertThat(caller.principal().getName()).isEqualTo("alice");
	}

	@Test
	void bearerHeaderWhenItDidNotAuthenticateShouldBeIgnored() {
		authenticate("alice");
		CallerKey withHeader = resolver.resolve(request("Bearer sp_random_1"));
		CallerKey withOther = resolver.resolve(request("bEaReR sp_random_2"));
		CallerKey without = resolver.resolve(request(null));
		assertThat(withHeader.value()).isEqualTo(without.value())
			.isEqualTo(withOther.value())
			.isEqualTo("p:" + Sha256.base64Url("alice"));
	}

	@Test
	void sha256WhenGivenAKnownVectorShouldMatchIt() {
		// SHA-256("abc") =
		// ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
		assertThat(Sha256.base64Url("abc")).isEqualTo("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
	}

	@Test
	void authenticatedRequestWhenWithoutBearerShouldBeKeyedOnTheHashOfThePrincipalName() {
		authenticate("alice");
		CallerKey caller = resolver.resolve(request("Basic YWxpY2U6cHc="));
		assertThat(caller.value()).isEqualTo("p:" + Sha256.base64Url("alice"));
	}

	@Test
	void unauthenticatedRequestWhenTheTokenIsMadeUpShouldBeKeyedOnTheAddress() {
		CallerKey caller = resolver.resolve(request("Bearer made-up"));
		assertThat(caller.authenticated()).isFalse();
		assertThat(caller.value()).isEqualTo("a:203.0.113.9");
	}

	@Test
	void requestWhenAuthenticationIsAnonymousShouldBeKeyedOnTheAddress() {
		SecurityContextHolder.getContext()
			.setAuthentication(new AnonymousAuthenticationToken("key", "anonymousUser",
					AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
		assertThat(resolver.resolve(request(null)).value()).isEqualTo("a:203.0.113.9");
	}

	@Test
	void requestWhenTheTokenObjectIsUnauthenticatedShouldBeKeyedOnTheAddress() {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.unauthenticated("mallory", "pw"));
		assertThat(resolver.resolve(request("Bearer x")).authenticated()).isFalse();
	}

	@Test
	void callerKeyWhenPrintedShouldNotNameThePrincipal() {
		authenticate("alice");
		assertThat(resolver.resolve(request(null)).toString()).doesNotContain("alice");
	}

	private static void authenticate(String name) {
		SecurityContextHolder.getContext()
			.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(name, null, List.of()));
	}

	private static MockHttpServletRequest request(String authorization) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/x");
		request.setRemoteAddr("203.0.113.9");
		if (authorization != null) {
			request.addHeader("Authorization", authorization);
		}
		return request;
	}

}
