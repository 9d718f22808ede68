package dev.limiter.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.limiter.actuate.LimiterOperations.Answer;
import dev.limiter.actuate.LimiterOperations.CountersDescriptor;
import dev.limiter.actuate.LimiterOperations.KeyDescriptor;
import dev.limiter.actuate.LimiterOperations.ResetDescriptor;
import dev.limiter.core.Budget;
import dev.limiter.core.KeyState;
import dev.limiter.core.RateLimitStore;
import dev.limiter.decision.RouteScopedKeys;
import dev.limiter.routes.RouteInventory;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetScope;
import dev.limiter.web.ProblemJson;
import dev.limiter.web.ProblemResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * {@code /actuator/limiter/keys/{keyHash}}: one key's counters in one budget or in every
 * budget (per route for a route-scoped budget), read without counting or forgotten. The
 * key hash must be a counter key; anything else is a 400, never echoed.
 */
final class KeyCounters {

	static final String KEYS_SEGMENT = "keys";

	/**
	 * {@code t:} (token) or {@code p:} (principal) + 43 base64url characters, or
	 * {@code a:} + an IP address.
	 */
	private static final Pattern KEY_HASH = Pattern.compile("(?:[tp]:[A-Za-z0-9_-]{43})|(?:a:[0-9A-Fa-f:.]{2,45})");

	private final Supplier<BudgetRegistry> budgets;

	private final Supplier<BudgetOptions> options;

	private final ObjectProvider<RateLimitStore> stores;

	private final Supplier<RouteInventory> routes;

	private final Clock clock;

	KeyCounters(Supplier<BudgetRegistry> budgets, Supplier<BudgetOptions> options,
			ObjectProvider<RateLimitStore> stores, Supplier<RouteInventory> routes, Clock clock) {
		this.budgets = budgets;
		this.options = options;
		this.stores = stores;
		this.routes = routes;
		this.clock = clock;
	}

	Answer read(String segment, String keyHash, String budget) {
		try {
			return new Answer(200, peek(segment, keyHash, budget));
		}
		catch (BadRequest bad) {
			return bad.response();
		}
	}

	Answer forget(String segment, String keyHash, String budget) {
		try {
			return new Answer(200, reset(segment, keyHash, budget));
		}
		catch (BadRequest bad) {
			return bad.response();
		}
	}

	private KeyDescriptor peek(String segment, String keyHash, String budget) {
		requireKeysSegment(segment);
		RateLimitStore store = requireStore();
		long now = clock.millis();
		List<CountersDescriptor> counters = new ArrayList<>();
		for (Budget target : targets(budget)) {
			for (String route : routesOf(target)) {
				KeyState state = store.peek(target, counterKey(keyHash(keyHash), route), now);
				if (route != null && budget == null && untouched(state)) {
					continue;
				}
				counters.add(new CountersDescriptor(target.name(), route,
						state.bounds().stream().map(LimiterOperations::describe).toList(), state.degraded()));
			}
		}
		return new KeyDescriptor(keyHash, Instant.ofEpochMilli(now).toString(), counters);
	}

	private ResetDescriptor reset(String segment, String keyHash, String budget) {
		requireKeysSegment(segment);
		RateLimitStore store = requireStore();
		String key = keyHash(keyHash);
		List<String> reset = new ArrayList<>();
		for (Budget target : targets(budget)) {
			for (String route : routesOf(target)) {
				store.reset(target, counterKey(key, route));
			}
			reset.add(target.name());
		}
		return new ResetDescriptor(keyHash, reset);
	}

	private static void requireKeysSegment(String segment) {
		if (!KEYS_SEGMENT.equals(segment)) {
			throw new BadRequest(404, "not_found", "Use /actuator/limiter/keys/{keyHash}.");
		}
	}

	private RateLimitStore requireStore() {
		RateLimitStore store = stores.getIfAvailable();
		if (store == null) {
			throw new IllegalStateException("no RateLimitStore");
		}
		return store;
	}

	private static String keyHash(String keyHash) {
		if (keyHash == null || !KEY_HASH.matcher(keyHash).matches()) {
			throw new BadRequest(400, "malformed_key_hash", "The key hash must be a counter key: 't:' followed by "
					+ "the SHA-256 of the token in base64url without padding (43 characters), 'p:' and the same of a "
					+ "principal name, or 'a:' and an IP address. Never send a raw token.");
		}
		return keyHash;
	}

	private List<Budget> targets(String budget) {
		if (budget == null) {
			return List.copyOf(budgets.get().all());
		}
		return List.of(budgets.get()
			.find(budget)
			.orElseThrow(() -> new BadRequest(400, "unknown_budget",
					"Unknown budget; known budgets are " + budgets.get().all().stream().map(Budget::name).toList())));
	}

	/**
	 * {@code null} for a key-scoped budget; every route pattern in the inventory (and the
	 * unmatched one) for a route-scoped one.
	 */
	private List<String> routesOf(Budget budget) {
		List<String> routesOf = new ArrayList<>();
		if (options.get().scope(budget.name()) != BudgetScope.ROUTE) {
			routesOf.add(null);
			return routesOf;
		}
		Set<String> patterns = new LinkedHashSet<>();
		routes.get().entries().forEach(entry -> patterns.add(entry.pattern()));
		patterns.add(RouteScopedKeys.UNMATCHED);
		routesOf.addAll(patterns);
		return routesOf;
	}

	private static String counterKey(String key, String route) {
		return route == null ? key : RouteScopedKeys.withRoute(key, route);
	}

	private static boolean untouched(KeyState state) {
		return state.bounds().stream().allMatch(bound -> bound.remaining() == bound.limit());
	}

	/**
	 * Bad input ends as a 4xx answer written here, never as an exception the error page
	 * would echo.
	 */
	static final class BadRequest extends RuntimeException {

		private final int status;

		private final String error;

		BadRequest(int status, String error, String message) {
			super(message, null, false, false);
			this.status = status;
			this.error = error;
		}

		/**
		 * A problem like every other response of the limiter, keeping the {@code error}
		 * and {@code message} members the endpoint always had.
		 */
		Answer response() {
			ProblemDetail problem = ProblemResponse.of(status, HttpStatus.valueOf(status).getReasonPhrase())
				.detail(getMessage())
				.with("error", error)
				.with("message", getMessage())
				.problem();
			return new Answer(status, ProblemJson.members(problem));
		}

	}

}
