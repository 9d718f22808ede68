package dev.limiter.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/**
 * What the counted operations refer to, in {@code components}: the problem body of a
 * refusal ({@value RateLimitOpenApiCustomizer#PROBLEM_SCHEMA}) and every header the
 * limiter writes.
 */
final class RateLimitComponents {

	private RateLimitComponents() {
	}

	static void addTo(OpenAPI openApi) {
		Components components = openApi.getComponents();
		if (components == null) {
			components = new Components();
			openApi.setComponents(components);
		}
		components.addSchemas(RateLimitOpenApiCustomizer.PROBLEM_SCHEMA, problemSchema());
		components.addHeaders("Retry-After",
				header("Seconds to wait before the refused bound has room again (whole seconds, at least 1)",
						new IntegerSchema()));
		components.addHeaders("Cache-Control",
				header("Always no-store: a refusal is never cached", new StringSchema()._default("no-store")));
		components.addHeaders("CDN-Cache-Control",
				header("Always no-store: a refusal is never cached", new StringSchema()._default("no-store")));
		components.addHeaders("X-RateLimit-Limit", header("The binding window's limit", new IntegerSchema()));
		components.addHeaders("X-RateLimit-Remaining",
				header("Requests left in the binding window (the one with the fewest left)", new IntegerSchema()));
		components.addHeaders("X-RateLimit-Reset",
				header("When the binding window resets, in Unix seconds", new IntegerSchema()));
		components.addHeaders("X-RateLimit-Window",
				header("The binding window's length in seconds", new IntegerSchema()));
		components.addHeaders("RateLimit-Policy", header(
				"Every bound of the budget (draft-ietf-httpapi-ratelimit-headers), such as " + "\"minute\";q=600;w=60",
				new StringSchema()));
		components.addHeaders("RateLimit",
				header("The binding bound's remaining quota and the seconds until more is made available "
						+ "(draft-ietf-httpapi-ratelimit-headers), " + "such as \"minute\";r=599;t=42",
						new StringSchema()));
	}

	private static Header header(String description, Schema<?> schema) {
		return new Header().description(description).schema(schema);
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private static Schema<?> problemSchema() {
		ObjectSchema problem = new ObjectSchema();
		problem.description("RFC 9457 problem details of a refusal, with the limiter's members");
		Map<String, Schema> properties = new LinkedHashMap<>();
		properties.put("type", new StringSchema().format("uri")
			.description("https://iana.org/assignments/http-problem-types#quota-exceeded, or about:blank"));
		properties.put("title", new StringSchema().example("Too Many Requests"));
		properties.put("status", new IntegerSchema().example(429));
		properties.put("detail", new StringSchema().description("Which budget, which bound, how long to wait"));
		properties.put("error", new StringSchema().example("rate_limit_exceeded"));
		properties.put("message", new StringSchema().description("The same sentence as detail"));
		properties.put("retryAfter", new IntegerSchema().description("The same number as Retry-After"));
		properties.put("limit", new IntegerSchema().description("The refusing bound's size"));
		properties.put("remaining", new IntegerSchema().description("0 for the refusing bound"));
		properties.put("resetTime",
				new StringSchema().format("date-time").description("When the refusing bound frees room"));
		properties.put("budget", new StringSchema().description("The budget's name"));
		properties.put("bound", new StringSchema().description("The refusing window's name, or concurrency"));
		properties.put("violated-policies", new ArraySchema().items(new StringSchema())
			.description("The refusing policies as named in RateLimit-Policy (with the IETF headers on)"));
		problem.setProperties(properties);
		problem.setRequired(List.of("type", "title", "status", "error", "retryAfter", "budget", "bound"));
		return problem;
	}

}
