package dev.limiter.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's OpenAPI document, read over a real port without a credential: the
 * limiter's 429, headers and bounds on each counted operation, nothing on an exempt one.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.budgets.standard.windows.minute.limit=7")
class SampleApiDocsTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void apiDocsWhenReadShouldDocumentTheRecallRefusalAndItsBudget() throws Exception {
		JsonNode docs = apiDocs();
		JsonNode recall = docs.at("/paths/~1s~1recall/post");
		JsonNode refusal = recall.at("/responses/429");
		assertThat(refusal.isMissingNode()).isFalse();
		assertThat(refusal.at("/headers/Retry-After/$ref").asText()).isEqualTo("#/components/headers/Retry-After");
		assertThat(refusal.at("/headers/X-RateLimit-Remaining").isMissingNode()).isFalse();
		assertThat(refusal.at("/headers/RateLimit-Policy").isMissingNode()).isFalse();
		assertThat(refusal.at("/headers/Cache-Control").isMissingNode()).isFalse();
		assertThat(refusal.at("/content/application~1problem+json/schema/$ref").asText())
			.isEqualTo("#/components/schemas/RateLimitProblem");
		assertThat(docs.at("/components/schemas/RateLimitProblem/properties/violated-policies/type").asText())
			.isEqualTo("array");
		assertThat(docs.at("/components/headers/Retry-After/schema/type").asText()).isEqualTo("integer");
		assertThat(recall.at("/responses/200/headers/X-RateLimit-Limit").isMissingNode()).isFalse();
		JsonNode limits = recall.get("x-ratelimit");
		assertThat(limits.get("budget").asText()).isEqualTo("standard");
		assertThat(limits.at("/windows/0/name").asText()).isEqualTo("minute");
		assertThat(limits.at("/windows/0/limit").asLong()).isEqualTo(7);
		assertThat(limits.at("/windows/0/seconds").asLong()).isEqualTo(60);
		assertThat(limits.at("/windows/0/algorithm").asText()).isEqualTo("fixed-window");
		assertThat(limits.at("/windows/1/limit").asLong()).isEqualTo(36000);
		// expensive: one lease of the ten
		assertThat(limits.at("/concurrency/max").asInt()).isEqualTo(10);
		assertThat(limits.at("/concurrency/lease-seconds").asLong()).isEqualTo(30);
		// the sample's trial tokens get another budget at run time
		assertThat(limits.get("varies-per-caller").asBoolean()).isTrue();
		assertThat(limits.get("note").asText()).contains("may vary per caller");
		// a caller without a token gets a 401 before the limiter: no anonymous budget
		assertThat(limits.get("anonymous-access").asText()).isEqualTo("denied");
		assertThat(limits.get("anonymous")).isNull();
	}

	@Test
	void apiDocsWhenReadShouldDocumentTheQuotaEndpointItsAnswerAndRefusals() throws Exception {
		JsonNode docs = apiDocs();
		JsonNode quota = docs.at("/paths/~1rate-limit/get");

		assertThat(quota.isMissingNode()).as("GET /rate-limit in the document").isFalse();
		assertThat(quota.at("/responses/200/content/application~1json/schema/$ref").asText())
			.isEqualTo("#/components/schemas/RateLimitQuota");
		assertThat(quota.at("/responses").fieldNames()).toIterable().contains("200", "401", "429", "503");
		assertThat(quota.at("/responses/429/headers/Retry-After").isMissingNode()).isFalse();
		assertThat(docs
			.at("/components/schemas/RateLimitQuota/properties/budgets/items/properties/bounds/items/properties")
			.fieldNames()).toIterable().contains("name", "unit", "limit", "remaining", "reset", "algorithm");
	}

	@Test
	void apiDocsWhenReadShouldNameTheUnitOfEveryWindow() throws Exception {
		JsonNode windows = apiDocs().at("/paths/~1s~1complete/post/x-ratelimit/windows");
		assertThat(windows.findValuesAsText("unit")).containsExactly("requests", "tokens", "tokens");
	}

	@Test
	void apiDocsWhenReadShouldShowACalendarWindowsPeriodAndZone() throws Exception {
		JsonNode month = apiDocs().at("/paths/~1s~1complete/post/x-ratelimit/windows/2");
		assertThat(month.get("name").asText()).isEqualTo("month");
		assertThat(month.get("algorithm").asText()).isEqualTo("calendar");
		assertThat(month.get("calendar").asText()).isEqualTo("month");
		assertThat(month.get("zone").asText()).isEqualTo("Europe/Berlin");
		assertThat(month.get("week-start")).isNull();
		assertThat(month.get("seconds").asLong()).as("a month's average length").isEqualTo(2_629_746);
	}

	@Test
	void apiDocsWhenReadShouldShowTheKeyEndpointUnderItsDocumentedPath() throws Exception {
		JsonNode paths = apiDocs().get("paths");
		assertThat(paths.has("/actuator/limiter/keys/{keyHash}")).isTrue();
		assertThat(paths.has("/actuator/limiter/{segment}/{keyHash}")).isFalse();
	}

	@Test
	void apiDocsWhenReadShouldListTheAnonymousBudgetOfPublicPing() throws Exception {
		JsonNode ping = apiDocs().at("/paths/~1public~1ping/get");
		assertThat(ping.at("/responses/429").isMissingNode()).isFalse();
		assertThat(ping.at("/x-ratelimit/anonymous-access").asText()).isEqualTo("allowed");
		JsonNode anonymous = ping.at("/x-ratelimit/anonymous");
		assertThat(anonymous.get("budget").asText()).isEqualTo("anonymous");
		assertThat(anonymous.at("/windows/0/limit").asLong()).isEqualTo(60);
		// not expensive: no lease
		assertThat(ping.at("/x-ratelimit/concurrency").isMissingNode()).isTrue();
	}

	@Test
	void apiDocsWhenReadShouldAddNothingToAnExemptRoute() throws Exception {
		JsonNode docs = apiDocs();
		JsonNode health = docs.at("/paths/~1actuator~1health/get");
		assertThat(health.isMissingNode()).as("the exempt actuator is in the document").isFalse();
		assertThat(health.at("/responses/429").isMissingNode()).isTrue();
		assertThat(health.get("x-ratelimit")).isNull();
	}

	private JsonNode apiDocs() throws Exception {
		HttpResponse<String> response = http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return new ObjectMapper().readTree(response.body());
	}

}
