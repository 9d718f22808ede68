package dev.limiter.servlet;

import dev.limiter.core.Sha256;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client address is request input once a proxy header sets it: keys stay short and
 * carry none of it.
 */
class DefaultKeyResolverHostileAddressTests {

	private final DefaultKeyResolver resolver = new DefaultKeyResolver(request -> null);

	@Test
	void addressWhenAnIpv4OrIpv6LiteralShouldBeKeptAsItIs() {
		assertThat(keyFor("203.0.113.9")).isEqualTo("a:203.0.113.9");
		assertThat(keyFor("2001:db8::1")).isEqualTo("a:2001:db8::1");
	}

	@Test
	void addressWhenNotAnIpLiteralShouldBeHashed() {
		assertThat(keyFor("<script>x</script>")).isEqualTo("a:h:" + Sha256.base64Url("<script>x</script>"));
	}

	@Test
	void addressWhenHugeShouldGiveAShortKey() {
		String huge = "F".repeat(20_000);

		assertThat(keyFor(huge)).hasSize("a:h:".length() + 43).doesNotContain("FFFF");
	}

	private String keyFor(String address) {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setRemoteAddr(address);
		return resolver.resolve(request).value();
	}

}
