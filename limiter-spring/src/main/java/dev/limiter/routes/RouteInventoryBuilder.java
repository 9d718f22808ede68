package dev.limiter.routes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RoutePolicy;

import org.springframework.http.server.PathContainer;
import org.springframework.util.ClassUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The route inventory of any web stack: each handler method, functional route and
 * resource handler a stack's walk adds ({@link MvcRoutes} for Spring MVC; the reactive
 * adapter's own for WebFlux) is resolved with the same precedence as requests: first
 * covering rule, method annotation, class annotation, default budget.
 *
 * <p>
 * A rule covers a handler pattern when its own pattern matches the handler's pattern read
 * as a path ({@code /links/**} and {@code /links/{id}} cover {@code /links/{id}}) and its
 * methods include the handler's. A rule that only overlaps a handler (the handler's
 * pattern matches the rule's, or the methods intersect) is alive but does not decide the
 * inventory line.
 */
public final class RouteInventoryBuilder {

	private final List<RouteRule> rules;

	private final List<PathPattern> rulePatterns;

	private final HandlerPolicies policies;

	private final BudgetRegistry budgets;

	private final boolean[] used;

	private final DocumentedPatterns documented;

	private final List<RouteInventory.Entry> entries = new ArrayList<>();

	public RouteInventoryBuilder(List<RouteRule> rules, HandlerPolicies policies, BudgetRegistry budgets) {
		this(rules, policies, budgets, DocumentedPatterns.AS_REGISTERED);
	}

	/**
	 * @param documented the path shown for a handler pattern whose documented path is
	 * another
	 */
	public RouteInventoryBuilder(List<RouteRule> rules, HandlerPolicies policies, BudgetRegistry budgets,
			DocumentedPatterns documented) {
		this.documented = documented;
		this.rules = List.copyOf(rules);
		this.rulePatterns = rules.stream()
			.map(rule -> PathPatternParser.defaultInstance.parse(rule.pattern()))
			.toList();
		this.policies = policies;
		this.budgets = budgets;
		this.used = new boolean[rules.size()];
	}

	/**
	 * Adds one handler method mapped at {@code patterns} for {@code methods} (empty: any
	 * method), whichever web stack maps it; an annotation problem is collected into
	 * {@code problems}.
	 */
	public RouteInventoryBuilder addHandlerMethod(List<String> methods, Collection<String> patterns,
			HandlerMethod method, List<String> problems) {
		String name = ClassUtils.getShortName(ClassUtils.getUserClass(method.getBeanType())) + "#"
				+ method.getMethod().getName();
		RoutePolicy annotated;
		RouteSource source;
		try {
			annotated = policies.policyFor(method);
			source = policies.sourceOf(method);
		}
		catch (RouteInventoryException ex) {
			problems.addAll(ex.getProblems());
			return this;
		}
		for (String pattern : patterns) {
			add(methods, documented.documented(pattern), name, annotated, source, true);
		}
		return this;
	}

	/**
	 * Adds a route that is no handler method (a functional route, a resource handler)
	 * under {@code policy}, unless a rule covers it.
	 * @param overlapKeepsRulesAlive whether a rule this route's pattern merely overlaps
	 * counts as used (not for a catch-all, which overlaps every rule)
	 */
	public RouteInventoryBuilder addRoute(List<String> methods, String pattern, String handler, RoutePolicy policy,
			RouteSource source, boolean overlapKeepsRulesAlive) {
		add(methods, pattern, handler, policy, source, overlapKeepsRulesAlive);
		return this;
	}

	/**
	 * Adds a route counted under {@code policy} whatever the rules say: its own filter
	 * decides (a gateway route's {@code Limiter} filter, on either gateway server).
	 */
	public RouteInventoryBuilder addRouteDecidedByItsFilter(List<String> methods, String pattern, String handler,
			RoutePolicy policy, RouteSource source) {
		String budget = budgetName(policy.budget(), policy.exempt());
		entries.add(new RouteInventory.Entry(methods, pattern, handler, budget, policy.expensive(), policy.exempt(),
				policy.reason(), source, unbounded(budget)));
		return this;
	}

	/**
	 * The problem of a route that names a budget this application does not define,
	 * {@code null} when the budget is known.
	 */
	String unknownBudget(String label, String budget) {
		if (budgets.find(budget).isPresent()) {
			return null;
		}
		return label + " names an unknown budget '" + budget + "' in its Limiter filter; known budgets are "
				+ budgets.all().stream().map((known) -> known.name()).toList();
	}

	/**
	 * Adds a path the limiter answers itself (the quota endpoint), as it is: no handler
	 * mapping knows it.
	 */
	public RouteInventoryBuilder addOwnEndpoint(RouteInventory.Entry entry) {
		entries.add(entry);
		return this;
	}

	public RouteInventory build() {
		List<String> dead = new ArrayList<>();
		for (int i = 0; i < rules.size(); i++) {
			if (!used[i]) {
				dead.add("limiter.routes[" + i + "] (" + describe(rules.get(i)) + ")");
			}
		}
		List<RouteInventory.Entry> sorted = new ArrayList<>(entries);
		sorted.sort(java.util.Comparator.comparing(RouteInventory.Entry::pattern)
			.thenComparing(entry -> String.join(",", entry.methods()))
			.thenComparing(RouteInventory.Entry::handler));
		return new RouteInventory(merged(sorted), dead);
	}

	/**
	 * One line per pattern, methods and policy: handler methods that differ only in what
	 * they produce or consume (Spring Boot's {@code BasicErrorController#error} and
	 * {@code #errorHtml}) share a line naming both.
	 */
	private static List<RouteInventory.Entry> merged(List<RouteInventory.Entry> sorted) {
		Map<List<Object>, RouteInventory.Entry> lines = new LinkedHashMap<>();
		for (RouteInventory.Entry entry : sorted) {
			List<Object> line = Arrays.asList(entry.methods(), entry.pattern(), entry.budget(), entry.expensive(),
					entry.exempt(), entry.reason(), entry.source(), entry.unbounded());
			lines.merge(line, entry, RouteInventoryBuilder::bothHandlers);
		}
		return new ArrayList<>(lines.values());
	}

	private static RouteInventory.Entry bothHandlers(RouteInventory.Entry first, RouteInventory.Entry second) {
		String type = first.handler().contains("#") ? first.handler().substring(0, first.handler().indexOf('#')) : null;
		String handler = (type != null && second.handler().startsWith(type + "#"))
				? first.handler() + ", " + second.handler().substring(type.length())
				: first.handler() + ", " + second.handler();
		return new RouteInventory.Entry(first.methods(), first.pattern(), handler, first.budget(), first.expensive(),
				first.exempt(), first.reason(), first.source(), first.unbounded());
	}

	private void add(List<String> methods, String pattern, String handler, RoutePolicy annotated, RouteSource source,
			boolean overlapKeepsRulesAlive) {
		RouteRule covering = null;
		PathContainer patternAsPath = PathContainer.parsePath(pattern);
		PathPattern handlerPattern = parseOrNull(pattern);
		for (int i = 0; i < rules.size(); i++) {
			RouteRule rule = rules.get(i);
			boolean coversPath = rulePatterns.get(i).matches(patternAsPath) || rule.pattern().equals(pattern);
			boolean overlapsPath = coversPath || (overlapKeepsRulesAlive && handlerPattern != null
					&& handlerPattern.matches(PathContainer.parsePath(rule.pattern())));
			if (!overlapsPath) {
				continue;
			}
			Set<String> ruleMethods = upper(rule.methods());
			boolean coversMethods = ruleMethods.isEmpty() || (!methods.isEmpty() && ruleMethods.containsAll(methods));
			boolean overlapsMethods = coversMethods || methods.isEmpty()
					|| methods.stream().anyMatch(ruleMethods::contains);
			if (overlapsMethods) {
				used[i] = true;
			}
			if (covering == null && coversPath && coversMethods) {
				covering = rule;
			}
		}
		if (covering != null) {
			RoutePolicy policy = covering.policy();
			String budget = budgetName(policy.budget(), policy.exempt());
			entries.add(new RouteInventory.Entry(methods, pattern, handler, budget, policy.expensive(), policy.exempt(),
					policy.reason(), covering.source(), unbounded(budget)));
		}
		else {
			String budget = budgetName(annotated.budget(), annotated.exempt());
			entries.add(new RouteInventory.Entry(methods, pattern, handler, budget, annotated.expensive(),
					annotated.exempt(), annotated.reason(), source, unbounded(budget)));
		}
	}

	/** Whether {@code budget} exists and has no concurrency bound. */
	private boolean unbounded(String budget) {
		return budget != null && budgets.find(budget).map(found -> found.concurrency().isEmpty()).orElse(false);
	}

	private String budgetName(String budget, boolean exempt) {
		if (exempt) {
			return null;
		}
		return budget != null ? budget : budgets.defaultBudget().name();
	}

	private static PathPattern parseOrNull(String pattern) {
		try {
			return PathPatternParser.defaultInstance.parse(pattern);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static Set<String> upper(List<String> methods) {
		Set<String> upper = new LinkedHashSet<>();
		for (String method : methods) {
			upper.add(method.toUpperCase(Locale.ROOT));
		}
		return upper;
	}

	private static String describe(RouteRule rule) {
		return (rule.methods().isEmpty() ? "" : String.join(",", upper(rule.methods())) + " ") + rule.pattern();
	}

}
