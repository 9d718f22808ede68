package dev.limiter.sample.webflux;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.sample.SampleApplication;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux sample's OpenAPI document (springdoc's WebFlux module), read over a real
 * port without a credential: the limiter's 429, headers and bounds on a counted
 * operation, and the quota endpoint.
 */
@ExtendWith(BlockHoundExtension.class)
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.budgets.standard.windows.minute.limit=7")
class ReactiveSampleApiDocsTests {

	@LocalServerPort
	int port;

	@Test
	void apiDocsWhenReadShouldDocumentTheRecallRefusalAndItsBudget() throws Exception {
		JsonNode docs = apiDocs();
		JsonNode recall = docs.at("/paths/~1s~1recall/post");
		JsonNode refusal = recall.at("/responses/429");

		assertThat(refusal.isMissingNode()).as(recall.toString()).isFalse();
		assertThat(refusal.at("/headers/Retry-After/$ref").asText()).isEqualTo("#/components/headers/Retry-After");
		assertThat(refusal.at("/headers/X-RateLimit-Remaining").isMissingNode()).isFalse();
		assertThat(refusal.at("/content/application~1problem+json/schema/$ref").asText())
			.isEqualTo("#/components/schemas/RateLimitProblem");
		assertThat(recall.at("/responses/200/headers/X-RateLimit-Limit").isMissingNode()).isFalse();
		JsonNode limits = recall.get("x-ratelimit");
		assertThat(limits.get("budget").asText()).isEqualTo("standard");
		assertThat(limits.at("/windows/0/limit").asLong()).isEqualTo(7);
		// reactive Spring Security has no privilege evaluator to ask
		assertThat(limits.get("anonymous-access").asText()).isEqualTo("unknown");
	}

	@Test
	void apiDocsWhenReadShouldDocumentTheQuotaEndpoint() throws Exception {
		JsonNode quota = apiDocs().at("/paths/~1rate-limit/get");

		assertThat(quota.isMissingNode()).as("GET /rate-limit in the document").isFalse();
		assertThat(quota.at("/responses").fieldNames()).toIterable().contains("200", "401", "429", "503");
	}

	private JsonNode apiDocs() throws Exception {
		// a connection per exchange, closed with it (see ReactiveSampleApplicationTests)
		byte[] body = WebTestClient
			.bindToServer(new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider.newConnection())))
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.build()
			.get()
			.uri("/v3/api-docs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		return new ObjectMapper().readTree(body);
	}

}
