package dev.limiter.sample.boot4;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.limiter.sample.SampleApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** The unchanged sample's OpenAPI document on Boot 4 (springdoc's 3.x line). */
@SpringBootTest(classes = SampleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "limiter.budgets.standard.windows.minute.limit=7")
class SampleApiDocsBoot4Tests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void apiDocsWhenReadOnBoot4ShouldDocumentRefusalsBudgetsAndExemptions() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		HttpResponse<String> response = http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode docs = new ObjectMapper().readTree(response.body());
		JsonNode recall = docs.at("/paths/~1s~1recall/post");
		assertThat(recall.at("/responses/429/headers/Retry-After").isMissingNode()).isFalse();
		assertThat(recall.at("/x-ratelimit/budget").asText()).isEqualTo("standard");
		assertThat(recall.at("/x-ratelimit/windows/0/limit").asLong()).isEqualTo(7);
		assertThat(recall.at("/x-ratelimit/concurrency/max").asInt()).isEqualTo(10);
		JsonNode ping = docs.at("/paths/~1public~1ping/get");
		assertThat(ping.at("/x-ratelimit/anonymous/budget").asText()).isEqualTo("anonymous");
		JsonNode health = docs.at("/paths/~1actuator~1health/get");
		assertThat(health.isMissingNode()).isFalse();
		assertThat(health.at("/responses/429").isMissingNode()).isTrue();
	}

}
