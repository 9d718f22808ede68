package dev.limiter.routes;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.core.Budget;
import dev.limiter.core.BudgetEstimates;
import dev.limiter.core.InvalidValueException;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;
import dev.limiter.spring.RoutePolicy;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.method.HandlerMethod;

/**
 * The annotation policy of each handler method:
 * {@link RateLimited}/{@link RateLimitExempt} on the method, else on the class, else the
 * built-in policy of the API documentation's own endpoints ({@link StaticResources}),
 * else the default. Read once per handler method and cached, so a request costs one map
 * lookup. The policies are {@link RoutePolicy} values without a pattern (the pattern is
 * the one the request matched, added by {@link RoutePolicy#withPattern}); where each was
 * written is kept beside it for the start-up inventory.
 */
public class HandlerPolicies {

	private final BudgetRegistry budgets;

	private final StaticResources staticResources;

	private final Map<HandlerKey, Annotated> cache = new ConcurrentHashMap<>();

	/** Static resources and the API documentation exempt. */
	public HandlerPolicies(BudgetRegistry budgets) {
		this(budgets, false);
	}

	/**
	 * @param countStaticResources whether static resources and the API documentation's
	 * endpoints are counted ({@code limiter.count-static-resources})
	 */
	public HandlerPolicies(BudgetRegistry budgets, boolean countStaticResources) {
		this.budgets = budgets;
		this.staticResources = new StaticResources(countStaticResources);
	}

	/**
	 * The policy of what Spring's resource handlers serve, and of the API documentation.
	 */
	StaticResources staticResources() {
		return staticResources;
	}

	/**
	 * @throws RouteInventoryException when an annotation names an unknown budget, an
	 * exemption has no reason, or one element carries both annotations
	 */
	public RoutePolicy policyFor(HandlerMethod handler) {
		return annotated(handler).policy();
	}

	/**
	 * @throws RouteInventoryException as {@link #policyFor(HandlerMethod)}
	 */
	public RoutePolicy policyFor(Class<?> beanType, Method method) {
		return annotated(beanType, method).policy();
	}

	/**
	 * Where the handler's policy was written: its method, its class, or nowhere.
	 * @throws RouteInventoryException as {@link #policyFor(HandlerMethod)}
	 */
	public RouteSource sourceOf(HandlerMethod handler) {
		return annotated(handler).source();
	}

	private Annotated annotated(HandlerMethod handler) {
		return annotated(ClassUtils.getUserClass(handler.getBeanType()), handler.getMethod());
	}

	private Annotated annotated(Class<?> beanType, Method method) {
		return cache.computeIfAbsent(new HandlerKey(beanType, method), this::resolve);
	}

	private Annotated resolve(HandlerKey key) {
		String where = describe(key.beanType(), key.method());
		Annotated onMethod = fromAnnotations(
				AnnotatedElementUtils.findMergedAnnotation(key.method(), RateLimited.class),
				AnnotatedElementUtils.findMergedAnnotation(key.method(), RateLimitExempt.class), where,
				RouteSource.METHOD_ANNOTATION);
		if (onMethod != null) {
			return onMethod;
		}
		Annotated onClass = fromAnnotations(
				AnnotatedElementUtils.findMergedAnnotation(key.beanType(), RateLimited.class),
				AnnotatedElementUtils.findMergedAnnotation(key.beanType(), RateLimitExempt.class),
				key.beanType().getName(), RouteSource.CLASS_ANNOTATION);
		if (onClass != null) {
			return onClass;
		}
		return StaticResources.isApiDocumentation(key.beanType())
				? new Annotated(staticResources.apiDocumentationPolicy(), RouteSource.BUILT_IN) : Annotated.NONE;
	}

	private Annotated fromAnnotations(RateLimited limited, RateLimitExempt exempt, String where, RouteSource source) {
		if (limited != null && exempt != null) {
			throw new RouteInventoryException("both @RateLimited and @RateLimitExempt on " + where + "; keep one");
		}
		if (exempt != null) {
			if (!StringUtils.hasText(exempt.reason())) {
				throw new RouteInventoryException("@RateLimitExempt on " + where + " must say why (reason is blank)");
			}
			return new Annotated(new RoutePolicy(null, null, false, true, exempt.reason()), source);
		}
		if (limited != null) {
			String budget = limited.budget().isEmpty() ? null : limited.budget();
			if (budget != null && budgets.find(budget).isEmpty()) {
				throw new RouteInventoryException("@RateLimited(budget = \"" + budget + "\") on " + where
						+ " names an unknown budget; known budgets are "
						+ budgets.all().stream().map(b -> b.name()).toList());
			}
			Map<String, Long> estimates = new LinkedHashMap<>();
			for (RateLimited.Estimate estimate : limited.estimates()) {
				estimates.put(estimate.unit(), estimate.amount());
			}
			String badEstimate = RoutePolicy.checkEstimates(estimates);
			if (badEstimate != null) {
				throw new RouteInventoryException("@RateLimited(estimates) on " + where + ": " + badEstimate);
			}
			// as for a route rule's estimates: each names a unit its budget counts and
			// fits every window of it, or no request could be admitted
			Budget counted = (budget != null) ? budgets.get(budget) : budgets.defaultBudget();
			for (Map.Entry<String, Long> estimate : estimates.entrySet()) {
				try {
					BudgetEstimates.check(counted, estimate.getKey(), estimate.getValue());
				}
				catch (InvalidValueException ex) {
					throw new RouteInventoryException("@RateLimited(estimates) on " + where + ": " + ex.getMessage());
				}
			}
			return new Annotated(new RoutePolicy(null, budget, limited.expensive(), false, null, estimates), source);
		}
		return null;
	}

	static String describe(Class<?> beanType, Method method) {
		return beanType.getName() + "#" + method.getName();
	}

	private record HandlerKey(Class<?> beanType, Method method) {
	}

	/** A handler's policy and where it was written. */
	private record Annotated(RoutePolicy policy, RouteSource source) {

		static final Annotated NONE = new Annotated(RoutePolicy.DEFAULT, RouteSource.DEFAULT);

	}

}
