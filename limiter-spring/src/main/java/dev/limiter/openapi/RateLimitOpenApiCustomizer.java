package dev.limiter.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetRegistry;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

/**
 * Writes the limiter into the application's OpenAPI document: every operation that the
 * route inventory says is counted gains the {@code 429} the limiter answers (its problem
 * body and headers), its success responses gain the counter headers, and an
 * {@code x-ratelimit} extension names the budget and its bounds. Exempt operations, and
 * operations the inventory does not know, are left as they are: the document claims
 * nothing the limiter does not do.
 *
 * <p>
 * Read through suppliers on every build of the document, so a refreshed configuration is
 * what the next build shows.
 */
public class RateLimitOpenApiCustomizer implements GlobalOpenApiCustomizer {

	/** The name of the extension on each counted operation. */
	public static final String EXTENSION = "x-ratelimit";

	/** The problem body's schema, in {@code components.schemas}. */
	public static final String PROBLEM_SCHEMA = "RateLimitProblem";

	static final String VARIES_NOTE = "A BudgetSelector (or BudgetDefinitionSelector) chooses the budget of an authenticated caller at run time: "
			+ "the bounds may vary per caller.";

	private static final String TOO_MANY_REQUESTS = "429";

	private final Supplier<RouteInventory> inventory;

	private final Supplier<BudgetRegistry> budgets;

	private final boolean xRateLimit;

	private final boolean ietf;

	private final boolean variesPerCaller;

	/**
	 * @param inventory the current route inventory
	 * @param budgets the current budgets
	 * @param xRateLimit whether responses carry the {@code X-RateLimit-*} headers
	 * @param ietf whether responses carry {@code RateLimit-Policy} and {@code RateLimit}
	 * @param variesPerCaller whether a {@code BudgetSelector} may choose another budget
	 * per caller
	 */
	public RateLimitOpenApiCustomizer(Supplier<RouteInventory> inventory, Supplier<BudgetRegistry> budgets,
			boolean xRateLimit, boolean ietf, boolean variesPerCaller) {
		this.inventory = inventory;
		this.budgets = budgets;
		this.xRateLimit = xRateLimit;
		this.ietf = ietf;
		this.variesPerCaller = variesPerCaller;
	}

	@Override
	public void customise(OpenAPI openApi) {
		if (openApi.getPaths() == null) {
			return;
		}
		RouteInventory routes = inventory.get();
		BudgetRegistry registry = budgets.get();
		boolean[] anyCounted = { false };
		openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
			RouteInventory.Entry entry = find(routes, path, method);
			if (entry != null && !entry.exempt()) {
				document(operation, entry, registry);
				anyCounted[0] = true;
			}
		}));
		if (anyCounted[0]) {
			addComponents(openApi);
		}
	}

	private static RouteInventory.Entry find(RouteInventory routes, String path, PathItem.HttpMethod method) {
		for (RouteInventory.Entry entry : routes.entries()) {
			if (entry.pattern().equals(path)
					&& (entry.methods().isEmpty() || entry.methods().contains(method.name()))) {
				return entry;
			}
		}
		return null;
	}

	private void document(Operation operation, RouteInventory.Entry entry, BudgetRegistry registry) {
		ApiResponses responses = operation.getResponses();
		if (responses == null) {
			responses = new ApiResponses();
			operation.setResponses(responses);
		}
		responses.forEach((status, response) -> {
			if (status.startsWith("2")) {
				counterHeaders().forEach(response::addHeaderObject);
			}
		});
		if (!responses.containsKey(TOO_MANY_REQUESTS)) {
			responses.addApiResponse(TOO_MANY_REQUESTS, tooManyRequests());
		}
		operation.addExtension(EXTENSION, extension(entry, registry));
	}

	private ApiResponse tooManyRequests() {
		ApiResponse response = new ApiResponse().description("Too Many Requests: a bound of the operation's budget is "
				+ "spent. Refused requests are not counted; retry after Retry-After seconds.");
		response.addHeaderObject("Retry-After", ref("Retry-After"));
		counterHeaders().forEach(response::addHeaderObject);
		response.addHeaderObject("Cache-Control", ref("Cache-Control"));
		response.addHeaderObject("CDN-Cache-Control", ref("CDN-Cache-Control"));
		response.content(new Content().addMediaType("application/problem+json",
				new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
		return response;
	}

	private Map<String, Header> counterHeaders() {
		Map<String, Header> headers = new LinkedHashMap<>();
		for (String name : counterHeaderNames()) {
			headers.put(name, ref(name));
		}
		return headers;
	}

	private List<String> counterHeaderNames() {
		List<String> names = new ArrayList<>();
		if (xRateLimit) {
			names.addAll(
					List.of("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Window"));
		}
		if (ietf) {
			names.addAll(List.of("RateLimit-Policy", "RateLimit"));
		}
		return names;
	}

	private static Header ref(String name) {
		return new Header().$ref("#/components/headers/" + name);
	}

	private Map<String, Object> extension(RouteInventory.Entry entry, BudgetRegistry registry) {
		Map<String, Object> extension = new LinkedHashMap<>();
		Budget budget = registry.find(entry.budget()).orElseGet(registry::defaultBudget);
		extension.putAll(bounds(budget, entry.expensive()));
		extension.put("expensive", entry.expensive());
		extension.put("anonymous", bounds(registry.anonymousBudget(), entry.expensive()));
		extension.put("varies-per-caller", variesPerCaller);
		if (variesPerCaller) {
			extension.put("note", VARIES_NOTE);
		}
		return extension;
	}

	private static Map<String, Object> bounds(Budget budget, boolean expensive) {
		Map<String, Object> bounds = new LinkedHashMap<>();
		bounds.put("budget", budget.name());
		List<Map<String, Object>> windows = new ArrayList<>();
		for (Window window : budget.windows()) {
			windows.add(window(window));
		}
		bounds.put("windows", windows);
		if (expensive && budget.concurrency().isPresent()) {
			ConcurrencyBound concurrency = budget.concurrency().get();
			Map<String, Object> leases = new LinkedHashMap<>();
			leases.put("max", concurrency.max());
			leases.put("lease-seconds", concurrency.lease().toSeconds());
			bounds.put("concurrency", leases);
		}
		return bounds;
	}

	/**
	 * One window as the document states it: its algorithm, what that algorithm adds (a
	 * token bucket's burst, a sliding window's resolution), and what it counts: requests,
	 * or the application's unit ({@code tokens}).
	 */
	private static Map<String, Object> window(Window window) {
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("name", window.name());
		described.put("limit", window.limit());
		described.put("duration", window.duration().toString());
		described.put("seconds", window.durationMillis() / 1000);
		described.put("algorithm", window.algorithm().value());
		if (window.algorithm() == WindowAlgorithm.TOKEN_BUCKET) {
			described.put("burst", window.burst());
		}
		if (window.algorithm() == WindowAlgorithm.SLIDING_WINDOW) {
			described.put("resolution-millis", window.resolutionMillis());
		}
		described.put("unit", window.unit());
		return described;
	}

	private void addComponents(OpenAPI openApi) {
		Components components = openApi.getComponents();
		if (components == null) {
			components = new Components();
			openApi.setComponents(components);
		}
		components.addSchemas(PROBLEM_SCHEMA, problemSchema());
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
