package dev.limiter.routes;

import java.util.ArrayList;
import java.util.Arrays;
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
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Walks every handler method of every {@link RequestMappingInfoHandlerMapping}
 * (controllers, and actuator endpoints served by the application's own dispatcher) and
 * every functional route whose predicates can be read, and resolves each with the same
 * precedence as requests: first covering rule, method annotation, class annotation,
 * default budget.
 *
 * <p>
 * A rule covers a handler pattern when its own pattern matches the handler's pattern read
 * as a path ({@code /links/**} and {@code /links/{id}} cover {@code /links/{id}}) and its
 * methods include the handler's. A rule that only overlaps a handler (the handler's
 * pattern matches the rule's, or the methods intersect) is alive but does not decide the
 * inventory line.
 */
public final class RouteInventoryBuilder {

	private static final String CATCH_ALL = "/**";

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
	 * Adds every handler method of a mapping; annotation problems are collected into
	 * {@code problems}.
	 */
	public RouteInventoryBuilder addHandlerMethods(RequestMappingInfoHandlerMapping mapping, List<String> problems) {
		for (Map.Entry<RequestMappingInfo, HandlerMethod> handler : mapping.getHandlerMethods().entrySet()) {
			RequestMappingInfo info = handler.getKey();
			HandlerMethod method = handler.getValue();
			List<String> methods = info.getMethodsCondition()
				.getMethods()
				.stream()
				.map(RequestMethod::name)
				.sorted()
				.toList();
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
				continue;
			}
			for (String pattern : info.getPatternValues()) {
				add(methods, documented.documented(pattern), name, annotated, source, true);
			}
		}
		return this;
	}

	/**
	 * Adds the patterns of a URL mapping's resource handlers (static locations, webjars,
	 * Swagger UI's files) with the built-in policy of static resources. The catch-all
	 * {@code /**} keeps alive only the rules that cover it: it overlaps every rule.
	 */
	public RouteInventoryBuilder addResourceHandlers(AbstractUrlHandlerMapping mapping) {
		for (Map.Entry<String, Object> handler : mapping.getHandlerMap().entrySet()) {
			if (handler.getValue() instanceof ResourceHttpRequestHandler resources) {
				List<String> methods = Arrays.stream(resources.getSupportedMethods()).sorted().toList();
				add(methods, handler.getKey(), ClassUtils.getShortName(ResourceHttpRequestHandler.class),
						policies.staticResources().resourcePolicy(), RouteSource.BUILT_IN,
						!CATCH_ALL.equals(handler.getKey()));
			}
		}
		return this;
	}

	/**
	 * Adds the functional routes of a mapping whose request predicates name a path; a
	 * gateway route ({@link NamedRoute}) by its id, on the budget of its own filter.
	 */
	public RouteInventoryBuilder addRouterFunctions(RouterFunctionMapping mapping, List<String> problems) {
		RouterFunction<?> routerFunction = mapping.getRouterFunction();
		if (routerFunction != null) {
			routerFunction.accept(new FunctionalRoutes((methods, pattern, handler, named) -> {
				if (named == null || named.budget() == null) {
					add(methods, pattern, handler,
							(named != null) ? named.policy().withPattern(null) : RoutePolicy.DEFAULT,
							RouteSource.DEFAULT, true);
				}
				else if (budgets.find(named.budget()).isEmpty()) {
					problems.add(named.label() + " names an unknown budget '" + named.budget()
							+ "' in its Limiter filter; known budgets are "
							+ budgets.all().stream().map(budget -> budget.name()).toList());
				}
				else {
					add(methods, pattern, handler, named.policy().withPattern(null), RouteSource.ROUTE_FILTER, true);
				}
			}));
		}
		return this;
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
