package dev.limiter.servlet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.limiter.core.Sha256;
import dev.limiter.test.web.RecordingStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counter key is what Spring Security established, over a real port: a JWT however it
 * is spelled, an opaque token's value, an API key's or a Basic user's principal, never a
 * bearer header that authenticated nothing.
 */
@SpringBootTest(classes = IdentityTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "limiter.auth-guard.enabled=false", "limiter.budgets.standard.windows.minute.limit=5",
				"limiter.budgets.subject.windows.minute.limit=5", "limiter.budgets.subject.windows.minute.duration=1m",
				"limiter.budgets.subject.key-by=principal", "limiter.routes[0].pattern=/{kind:jwt|opaque}/subject",
				"limiter.routes[0].budget=subject", })
class IdentityHttpTests {

	private static final String BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@BeforeEach
	void freshCounters() {
		store.clear();
	}

	@Test
	void jwtWhenSpentAndPaddedShouldBeRefused() throws Exception {
		String token = jwt("alice");
		spend("/jwt/hello", "Bearer " + token);
		for (int padding = 1; padding <= 8; padding++) {
			assertThat(get("/jwt/hello", Map.of("Authorization", "Bearer " + token + "=".repeat(padding))).statusCode())
				.as("%d '=' appended", padding)
				.isEqualTo(429);
		}
		assertThat(store.keys().stream().distinct()).hasSize(1);
	}

	@Test
	void jwtWhenSpentAndItsSignatureIsReencodedShouldBeRefused() throws Exception {
		String token = jwt("alice");
		spend("/jwt/hello", "Bearer " + token);
		// An HS256 signature is 32 bytes in 43 characters: the last character's two low
		// bits carry nothing.
		int last = BASE64URL.indexOf(token.charAt(token.length() - 1));
		for (int bits = 1; bits <= 3; bits++) {
			String variant = token.substring(0, token.length() - 1) + BASE64URL.charAt(last ^ bits);
			assertThat(get("/jwt/hello", Map.of("Authorization", "Bearer " + variant)).statusCode())
				.as("low bits %d", bits)
				.isEqualTo(429);
		}
		assertThat(store.keys().stream().distinct()).hasSize(1);
	}

	@Test
	void tokensOfOneSubjectWhenKeyedByCredentialShouldCountApart() throws Exception {
		String first = jwt("bob");
		String second = jwt("bob");
		spend("/jwt/hello", "Bearer " + first);
		HttpResponse<String> other = get("/jwt/hello", Map.of("Authorization", "Bearer " + second));
		assertThat(other.statusCode()).isEqualTo(200);
		assertThat(other.headers().firstValue("X-RateLimit-Remaining")).hasValue("4");
	}

	@Test
	void tokensOfOneSubjectWhenKeyedByPrincipalShouldCountTogether() throws Exception {
		String first = jwt("carol");
		String second = jwt("carol");
		spend("/jwt/subject", "Bearer " + first);
		assertThat(get("/jwt/subject", Map.of("Authorization", "Bearer " + second)).statusCode()).isEqualTo(429);
		assertThat(get("/jwt/subject", Map.of("Authorization", "Bearer " + jwt("dave"))).statusCode()).isEqualTo(200);
	}

	@Test
	void apiKeyWhenBearerHeadersAreRandomShouldBeRefusedAfterTheBound() throws Exception {
		spend("/partner/hello", null);
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = get("/partner/hello", Map.of("X-Api-Key", IdentityTestApplication.API_KEY,
					"Authorization", "Bearer " + UUID.randomUUID()));
			assertThat(response.statusCode()).isEqualTo(429);
		}
	}

	@Test
	void apiKeyWhenBearerHeadersAreRandomShouldNotCreateAStoreKeyPerRequest() throws Exception {
		for (int i = 0; i < 4; i++) {
			assertThat(get("/partner/hello", Map.of("X-Api-Key", IdentityTestApplication.API_KEY, "Authorization",
					"Bearer " + UUID.randomUUID()))
				.statusCode()).isEqualTo(200);
		}
		assertThat(store.keys()).hasSize(4).containsOnly("standard/p:" + Sha256.base64Url("partner-1"));
	}

	@Test
	void basicWhenBearerHeadersAreRandomShouldBeRefusedAfterTheBound() throws Exception {
		String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("basic-user:pw".getBytes());
		for (int i = 0; i < 5; i++) {
			assertThat(get("/partner/hello", Map.of("Authorization", basic)).statusCode()).isEqualTo(200);
		}
		// A second Authorization header cannot be sent beside Basic; a bearer one in its
		// place does not authenticate.
		assertThat(get("/partner/hello", Map.of("Authorization", basic)).statusCode()).isEqualTo(429);
		assertThat(get("/partner/hello", Map.of("Authorization", "Bearer " + UUID.randomUUID())).statusCode())
			.isEqualTo(401);
		assertThat(store.keys().stream().distinct()).containsExactly("standard/p:" + Sha256.base64Url("basic-user"));
	}

	@Test
	void opaqueTokenWhenIntrospectedShouldBeKeyedOnTheToken() throws Exception {
		String first = "op_erin_" + UUID.randomUUID();
		String second = "op_erin_" + UUID.randomUUID();
		spend("/opaque/hello", "Bearer " + first);
		assertThat(get("/opaque/hello", Map.of("Authorization", "Bearer " + second)).statusCode()).isEqualTo(200);
		assertThat(store.keys().stream().distinct()).containsExactly("standard/t:" + Sha256.base64Url(first),
				"standard/t:" + Sha256.base64Url(second));
	}

	@Test
	void opaqueTokensOfOneSubjectWhenKeyedByPrincipalShouldCountTogether() throws Exception {
		spend("/opaque/subject", "Bearer op_fay_" + UUID.randomUUID());
		assertThat(get("/opaque/subject", Map.of("Authorization", "Bearer op_fay_" + UUID.randomUUID())).statusCode())
			.isEqualTo(429);
		assertThat(store.keys().stream().distinct()).containsExactly("subject/p:" + Sha256.base64Url("fay"));
	}

	/**
	 * Five admitted requests, then a sixth refused. {@code authorization} null: the
	 * partner's API key.
	 */
	private void spend(String path, String authorization) throws Exception {
		Map<String, String> headers = authorization == null ? Map.of("X-Api-Key", IdentityTestApplication.API_KEY)
				: Map.of("Authorization", authorization);
		for (int i = 0; i < 5; i++) {
			assertThat(get(path, headers).statusCode()).as("request %d", i + 1).isEqualTo(200);
		}
		assertThat(get(path, headers).statusCode()).isEqualTo(429);
	}

	private HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET();
		headers.forEach(request::header);
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	static String jwt(String subject) throws Exception {
		Instant now = Instant.now();
		JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(IdentityTestApplication.ISSUER)
			.subject(subject)
			.jwtID(UUID.randomUUID().toString())
			.issueTime(Date.from(now))
			.expirationTime(Date.from(now.plusSeconds(600)))
			.build();
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
		jwt.sign(new MACSigner(IdentityTestApplication.SECRET));
		return jwt.serialize();
	}

}
