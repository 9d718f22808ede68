package dev.limiter.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.web.ProblemMember;
import dev.limiter.web.RateLimitHeader;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

import org.springframework.http.HttpHeaders;

/**
 * What the counted operations refer to, in {@code components}: the problem body of a
 * refusal ({@value RateLimitOpenApiCustomizer#PROBLEM_SCHEMA}) and every header the
 * limiter writes.
 */
final class RateLimitComponents {

	static final String CDN_CACHE_CONTROL = "CDN-Cache-Control";

	private RateLimitComponents() {
	}

	static void addTo(OpenAPI openApi) {
		Components components = openApi.getComponents();
		if (components == null) {
			components = new Components();
			openApi.setComponents(components);
		}
		components.addSchemas(RateLimitOpenApiCustomizer.PROBLEM_SCHEMA, problemSchema());
		for (RateLimitHeader header : RateLimitHeader.values()) {
			boolean quoted = header == RateLimitHeader.RATE_LIMIT || header == RateLimitHeader.RATE_LIMIT_POLICY;
			if (header != RateLimitHeader.DEGRADED && header != RateLimitHeader.SHADOW) {
				// components hold what the operations refer to, and none refers to the
				// two markers
				components.addHeaders(header.headerName(),
						header(header.meaning(), quoted ? new StringSchema() : new IntegerSchema()));
			}
		}
		components.addHeaders(HttpHeaders.CACHE_CONTROL,
				header("Always no-store: a refusal is never cached", new StringSchema()._default("no-store")));
		components.addHeaders(CDN_CACHE_CONTROL,
				header("Always no-store: a refusal is never cached", new StringSchema()._default("no-store")));
	}

	private static Header header(String description, Schema<?> schema) {
		return new Header().description(description).schema(schema);
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private static Schema<?> problemSchema() {
		ObjectSchema problem = new ObjectSchema();
		problem.description("RFC 9457 problem details of a refusal, with the limiter's members");
		Map<String, Schema> properties = new LinkedHashMap<>();
		for (ProblemMember member : ProblemMember.values()) {
			properties.put(member.member(), memberSchema(member).description(member.meaning()));
		}
		problem.setProperties(properties);
		problem.setRequired(List.of(ProblemMember.TYPE.member(), ProblemMember.TITLE.member(),
				ProblemMember.STATUS.member(), ProblemMember.ERROR.member(), ProblemMember.RETRY_AFTER.member(),
				ProblemMember.BUDGET.member(), ProblemMember.BOUND.member()));
		return problem;
	}

	private static Schema<?> memberSchema(ProblemMember member) {
		return switch (member) {
			case TYPE -> new StringSchema().format("uri");
			case TITLE -> new StringSchema().example("Too Many Requests");
			case STATUS -> new IntegerSchema().example(429);
			case ERROR -> new StringSchema().example("rate_limit_exceeded");
			case RESET_TIME -> new StringSchema().format("date-time");
			case RETRY_AFTER, LIMIT, REMAINING -> new IntegerSchema();
			case VIOLATED_POLICIES -> new ArraySchema().items(new StringSchema());
			case DETAIL, MESSAGE, BUDGET, BOUND, UNIT -> new StringSchema();
		};
	}

}
