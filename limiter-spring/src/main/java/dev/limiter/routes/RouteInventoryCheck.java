package dev.limiter.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.limiter.routes.PropertiesRouteResolver.RouteRule;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.web.KeyValueLog;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/**
 * Once every singleton exists (so every handler is registered): builds the
 * {@link RouteInventory}, logs it at INFO as a table, and fails start-up on any
 * annotation problem and, when strict, on every handler that falls to the default budget
 * implicitly, every rule that matches no handler and every expensive handler whose budget
 * has no concurrency bound (not strict, each of those is a WARN line). A refresh rechecks
 * the same way.
 */
public class RouteInventoryCheck implements SmartInitializingSingleton, CurrentRouteInventory {

	private static final Log logger = LogFactory.getLog(RouteInventoryCheck.class);

	/** The inventory's INFO, with its counts as key-value pairs. */
	private static final KeyValueLog summary = KeyValueLog.of(RouteInventoryCheck.class);

	private final ListableBeanFactory beanFactory;

	private final List<RouteRule> rules;

	private final HandlerPolicies policies;

	private final BudgetRegistry budgets;

	private final boolean strict;

	private final Supplier<DocumentedPatterns> documented;

	private volatile RouteInventory inventory = new RouteInventory(List.of(), List.of());

	/** Paths the limiter answers itself, listed beside the handlers. */
	private volatile List<RouteInventory.Entry> ownEndpoints = List.of();

	public RouteInventoryCheck(ListableBeanFactory beanFactory, List<RouteRule> rules, HandlerPolicies policies,
			BudgetRegistry budgets, boolean strict) {
		this(beanFactory, rules, policies, budgets, strict, () -> DocumentedPatterns.AS_REGISTERED);
	}

	/**
	 * @param documented the paths shown for handler patterns documented as another (read
	 * once every singleton exists)
	 */
	public RouteInventoryCheck(ListableBeanFactory beanFactory, List<RouteRule> rules, HandlerPolicies policies,
			BudgetRegistry budgets, boolean strict, Supplier<DocumentedPatterns> documented) {
		this.documented = documented;
		this.beanFactory = beanFactory;
		this.rules = List.copyOf(rules);
		this.policies = policies;
		this.budgets = budgets;
		this.strict = strict;
	}

	/**
	 * Lists {@code entries}, paths the limiter answers itself (the quota endpoint), in
	 * every inventory built from now on.
	 */
	public void ownEndpoints(List<RouteInventory.Entry> entries) {
		this.ownEndpoints = List.copyOf(entries);
	}

	/**
	 * The inventory built at start-up, or by the latest refresh that was put in force.
	 */
	@Override
	public RouteInventory inventory() {
		return inventory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> problems = new ArrayList<>();
		RouteInventory built = build(rules, policies, budgets, problems);
		if (!problems.isEmpty()) {
			throw new RouteInventoryException(problems);
		}
		install(built);
		List<String> strictProblems = strictProblems(built, strict);
		if (!strictProblems.isEmpty()) {
			throw new RouteInventoryException(strictProblems);
		}
	}

	/**
	 * The inventory of other rules and budgets (a refreshed configuration), checked as at
	 * start-up but not put in force.
	 * @throws RouteInventoryException with every problem start-up would fail on
	 */
	public RouteInventory recheck(List<RouteRule> rules, HandlerPolicies policies, BudgetRegistry budgets,
			boolean strict) {
		List<String> problems = new ArrayList<>();
		RouteInventory built = build(rules, policies, budgets, problems);
		problems.addAll(strictProblems(built, strict));
		if (!problems.isEmpty()) {
			throw new RouteInventoryException(problems);
		}
		return built;
	}

	/** Puts an inventory in force and logs it. */
	public void install(RouteInventory built) {
		this.inventory = built;
		summary.info(
				"Limiter route inventory (" + built.entries().size() + " handlers, " + built.implicitDefaults().size()
						+ " on the default budget implicitly, " + built.deadRules().size()
						+ " rules matching no handler):" + built.toTable(),
				"handlers", built.entries().size(), "implicitDefaults", built.implicitDefaults().size(), "deadRules",
				built.deadRules().size());
		for (RouteInventory.Entry entry : built.expensiveWithoutConcurrency()) {
			logger.warn(unbounded(entry));
		}
	}

	private RouteInventory build(List<RouteRule> rules, HandlerPolicies policies, BudgetRegistry budgets,
			List<String> problems) {
		RouteInventoryBuilder builder = new RouteInventoryBuilder(rules, policies, budgets, documented.get());
		BeanFactoryUtils.beansOfTypeIncludingAncestors(beanFactory, RequestMappingInfoHandlerMapping.class, true, false)
			.values()
			.stream()
			.sorted(AnnotationAwareOrderComparator.INSTANCE)
			.forEach(mapping -> MvcRoutes.addHandlerMethods(builder, mapping, problems));
		BeanFactoryUtils.beansOfTypeIncludingAncestors(beanFactory, RouterFunctionMapping.class, true, false)
			.values()
			.stream()
			.sorted(AnnotationAwareOrderComparator.INSTANCE)
			.forEach(mapping -> MvcRoutes.addRouterFunctions(builder, mapping, problems));
		BeanFactoryUtils.beansOfTypeIncludingAncestors(beanFactory, AbstractUrlHandlerMapping.class, true, false)
			.values()
			.stream()
			.sorted(AnnotationAwareOrderComparator.INSTANCE)
			.forEach(mapping -> MvcRoutes.addResourceHandlers(builder, policies, mapping));
		ownEndpoints.forEach(builder::addOwnEndpoint);
		return builder.build();
	}

	private static List<String> strictProblems(RouteInventory built, boolean strict) {
		List<String> strictProblems = new ArrayList<>();
		if (strict) {
			for (RouteInventory.Entry entry : built.implicitDefaults()) {
				strictProblems.add("handler " + entry.methodsLabel() + " " + entry.pattern() + " (" + entry.handler()
						+ ") falls to the default budget '" + entry.budget() + "' implicitly");
			}
			for (String dead : built.deadRules()) {
				strictProblems.add("rule " + dead + " matches no handler");
			}
			for (RouteInventory.Entry entry : built.expensiveWithoutConcurrency()) {
				strictProblems.add(unbounded(entry));
			}
		}
		return strictProblems;
	}

	private static String unbounded(RouteInventory.Entry entry) {
		return "handler " + entry.methodsLabel() + " " + entry.pattern() + " (" + entry.handler()
				+ ") is expensive, but its budget '" + entry.budget() + "' has no concurrency bound: its requests "
				+ "take no lease (set limiter.budgets." + entry.budget() + ".concurrency)";
	}

}
