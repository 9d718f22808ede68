package dev.limiter.openapi;

import java.util.List;

import dev.limiter.quota.QuotaReport;
import dev.limiter.routes.RouteInventory;
import dev.limiter.routes.RouteSource;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

import org.springframework.http.HttpHeaders;

/**
 * The quota endpoint ({@code limiter.quota-endpoint.path}) in the document: no handler
 * mapping knows it, so springdoc does not list it; its route inventory line does. Its
 * {@code GET} answers {@value #QUOTA_SCHEMA} ({@code no-store}), {@code 401} to an
 * anonymous caller, the usual {@code 429} past its own bound and {@code 503} when the
 * store cannot read the counters.
 */
final class QuotaEndpointDocument {

	/** The schema of the quota endpoint's answer, in {@code components}. */
	static final String QUOTA_SCHEMA = "RateLimitQuota";

	private QuotaEndpointDocument() {
	}

	/** Whether {@code entry} is the quota endpoint's own line. */
	static boolean isQuotaEndpoint(RouteInventory.Entry entry) {
		return entry.source() == RouteSource.BUILT_IN && QuotaReport.BUDGET_NAME.equals(entry.budget());
	}

	/**
	 * Adds the quota endpoint's path, unless the document has it already.
	 * @param tooManyRequests the refusal of a counted operation, as the customizer
	 * documents it
	 */
	static void addTo(OpenAPI openApi, RouteInventory.Entry entry, ApiResponse tooManyRequests) {
		Paths paths = openApi.getPaths();
		if (paths.containsKey(entry.pattern())) {
			return;
		}
		ApiResponse ok = new ApiResponse()
			.description("The caller's own counters in every budget that applies to it, read without spending them")
			.content(new Content().addMediaType("application/json",
					new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + QUOTA_SCHEMA))));
		ok.addHeaderObject(HttpHeaders.CACHE_CONTROL, new Header().$ref("#/components/headers/Cache-Control"));
		ApiResponses responses = new ApiResponses().addApiResponse("200", ok)
			.addApiResponse("401", problem("Unauthorized: the quota endpoint answers an authenticated caller only"))
			.addApiResponse("429", tooManyRequests)
			.addApiResponse("503", problem("Service Unavailable: the store cannot read the counters now"));
		Operation get = new Operation().operationId("limiterQuota")
			.summary("A caller's own quota")
			.description(entry.reason())
			.addTagsItem("limiter")
			.responses(responses);
		paths.addPathItem(entry.pattern(), new PathItem().get(get));
		openApi.getComponents().addSchemas(QUOTA_SCHEMA, quotaSchema());
	}

	private static ApiResponse problem(String description) {
		return new ApiResponse().description(description)
			.content(
					new Content().addMediaType("application/problem+json", new MediaType().schema(new ObjectSchema())));
	}

	private static Schema<?> quotaSchema() {
		ObjectSchema bound = new ObjectSchema();
		bound.addProperty("name", new StringSchema().description("the window's name, or concurrency"));
		bound.addProperty("unit", new StringSchema().description("what it counts: requests, tokens, ..."));
		bound.addProperty("limit", new IntegerSchema().format("int64"));
		bound.addProperty("remaining", new IntegerSchema().format("int64"));
		bound.addProperty("reset", new StringSchema().format("date-time"));
		bound.addProperty("algorithm", new StringSchema().description("the window's algorithm, or concurrency"));
		bound.addProperty("concurrency", new BooleanSchema());
		ObjectSchema budget = new ObjectSchema();
		budget.addProperty("budget", new StringSchema());
		budget.addProperty("route",
				new StringSchema().description("the route pattern of a route-scoped budget; absent otherwise"));
		budget.addProperty("bounds", new ArraySchema().items(bound));
		ObjectSchema quota = new ObjectSchema();
		quota.addProperty("at", new StringSchema().format("date-time").description("when the counters were read"));
		quota.addProperty("budgets", new ArraySchema().items(budget));
		quota.setRequired(List.of("at", "budgets"));
		return quota;
	}

}
