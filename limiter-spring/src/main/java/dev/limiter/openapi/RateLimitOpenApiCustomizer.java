package dev.limiter.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import dev.limiter.core.Budget;
import dev.limiter.core.CalendarPeriod;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Window;
import dev.limiter.routes.DocumentedPatterns;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.web.RateLimitHeader;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

import org.springframework.http.HttpHeaders;

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

	private final AnonymousAccess anonymousAccess;

	private final DocumentedPatterns documented;

	/**
	 * A customizer that cannot tell which operations an anonymous caller reaches.
	 * @param inventory the current route inventory
	 * @param budgets the current budgets
	 * @param xRateLimit whether responses carry the {@code X-RateLimit-*} headers
	 * @param ietf whether responses carry {@code RateLimit-Policy} and {@code RateLimit}
	 * @param variesPerCaller whether a {@code BudgetSelector} may choose another budget
	 * per caller
	 */
	public RateLimitOpenApiCustomizer(Supplier<RouteInventory> inventory, Supplier<BudgetRegistry> budgets,
			boolean xRateLimit, boolean ietf, boolean variesPerCaller) {
		this(inventory, budgets, xRateLimit, ietf, variesPerCaller, AnonymousAccess.UNKNOWN,
				DocumentedPatterns.AS_REGISTERED);
	}

	/**
	 * @param inventory the current route inventory
	 * @param budgets the current budgets
	 * @param xRateLimit whether responses carry the {@code X-RateLimit-*} headers
	 * @param ietf whether responses carry {@code RateLimit-Policy} and {@code RateLimit}
	 * @param variesPerCaller whether a {@code BudgetSelector} may choose another budget
	 * per caller
	 * @param anonymousAccess which operations a caller without a credential reaches
	 * @param documented the path shown for a path whose documented path is another (as in
	 * the route inventory)
	 */
	public RateLimitOpenApiCustomizer(Supplier<RouteInventory> inventory, Supplier<BudgetRegistry> budgets,
			boolean xRateLimit, boolean ietf, boolean variesPerCaller, AnonymousAccess anonymousAccess,
			DocumentedPatterns documented) {
		this.anonymousAccess = anonymousAccess;
		this.documented = documented;
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
		DocumentedPaths.rename(openApi, documented);
		RouteInventory routes = inventory.get();
		BudgetRegistry registry = budgets.get();
		boolean[] anyCounted = { false };
		openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
			RouteInventory.Entry entry = find(routes, path, method);
			if (entry != null && !entry.exempt()) {
				document(operation, entry, registry, anonymousAccess.reach(path, method.name()));
				anyCounted[0] = true;
			}
		}));
		RouteInventory.Entry quota = routes.entries()
			.stream()
			.filter(QuotaEndpointDocument::isQuotaEndpoint)
			.findFirst()
			.orElse(null);
		if (anyCounted[0] || quota != null) {
			RateLimitComponents.addTo(openApi);
		}
		if (quota != null) {
			QuotaEndpointDocument.addTo(openApi, quota, tooManyRequests());
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

	private void document(Operation operation, RouteInventory.Entry entry, BudgetRegistry registry,
			AnonymousAccess.Reach anonymous) {
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
		operation.addExtension(EXTENSION, extension(entry, registry, anonymous));
	}

	private ApiResponse tooManyRequests() {
		ApiResponse response = new ApiResponse().description("Too Many Requests: a bound of the operation's budget is "
				+ "spent. Refused requests are not counted; retry after Retry-After seconds.");
		response.addHeaderObject(RateLimitHeader.RETRY_AFTER.headerName(),
				ref(RateLimitHeader.RETRY_AFTER.headerName()));
		counterHeaders().forEach(response::addHeaderObject);
		response.addHeaderObject(HttpHeaders.CACHE_CONTROL, ref(HttpHeaders.CACHE_CONTROL));
		response.addHeaderObject(RateLimitComponents.CDN_CACHE_CONTROL, ref(RateLimitComponents.CDN_CACHE_CONTROL));
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
			names.addAll(List.of(RateLimitHeader.LIMIT.headerName(), RateLimitHeader.REMAINING.headerName(),
					RateLimitHeader.RESET.headerName(), RateLimitHeader.WINDOW.headerName()));
		}
		if (ietf) {
			names.addAll(
					List.of(RateLimitHeader.RATE_LIMIT_POLICY.headerName(), RateLimitHeader.RATE_LIMIT.headerName()));
		}
		return names;
	}

	private static Header ref(String name) {
		return new Header().$ref("#/components/headers/" + name);
	}

	/**
	 * The bounds of the operation; the anonymous budget's only where a caller without a
	 * credential may reach it ({@code anonymous-access}: {@code allowed}, or
	 * {@code unknown} when nothing says).
	 */
	private Map<String, Object> extension(RouteInventory.Entry entry, BudgetRegistry registry,
			AnonymousAccess.Reach anonymous) {
		Map<String, Object> extension = new LinkedHashMap<>();
		Budget budget = registry.find(entry.budget()).orElseGet(registry::defaultBudget);
		extension.putAll(bounds(budget, entry.expensive()));
		extension.put("expensive", entry.expensive());
		extension.put("anonymous-access", anonymous.value());
		if (anonymous != AnonymousAccess.Reach.DENIED) {
			extension.put("anonymous", bounds(registry.anonymousBudget(), entry.expensive()));
		}
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
	 * token bucket's burst, a sliding window's resolution, a calendar window's period and
	 * zone), and what it counts: requests, or the application's unit ({@code tokens}).
	 */
	private static Map<String, Object> window(Window window) {
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("name", window.name());
		described.put("limit", window.limit());
		described.put("duration", window.duration().toString());
		described.put("seconds", window.durationMillis() / 1000);
		described.put("algorithm", window.algorithm().value());
		if (window.algorithm().kind().takesBurst()) {
			described.put("burst", window.burst());
		}
		if (window.algorithm().kind().takesResolution()) {
			described.put("resolution-millis", window.resolutionMillis());
		}
		window.calendar().ifPresent((period) -> {
			// its periods vary (a month of 28 to 31 days): duration and seconds are the
			// average, the calendar says which
			described.put("calendar", period.unit().value());
			described.put("zone", period.zone().getId());
			if (period.unit() == CalendarPeriod.Unit.WEEK) {
				described.put("week-start", period.weekStart().name().toLowerCase(Locale.ROOT));
			}
		});
		described.put("unit", window.unit());
		return described;
	}

}
