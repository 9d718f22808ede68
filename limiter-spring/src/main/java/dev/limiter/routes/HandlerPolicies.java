package dev.limiter.routes;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.RateLimitExempt;
import dev.limiter.spring.RateLimited;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.method.HandlerMethod;

/**
 * The annotation policy of each handler method:
 * {@link RateLimited}/{@link RateLimitExempt} on the method, else on the class, else the
 * default. Read once per handler method and cached, so a request costs one map lookup.
 */
public class HandlerPolicies {

	private final BudgetRegistry budgets;

	private final Map<HandlerKey, HandlerPolicy> cache = new ConcurrentHashMap<>();

	public HandlerPolicies(BudgetRegistry budgets) {
		this.budgets = budgets;
	}

	/**
	 * @throws RouteInventoryException when an annotation names an unknown budget, an
	 * exemption has no reason, or one element carries both annotations
	 */
	public HandlerPolicy policyFor(HandlerMethod handler) {
		return policyFor(ClassUtils.getUserClass(handler.getBeanType()), handler.getMethod());
	}

	public HandlerPolicy policyFor(Class<?> beanType, Method method) {
		return cache.computeIfAbsent(new HandlerKey(beanType, method), this::resolve);
	}

	private HandlerPolicy resolve(HandlerKey key) {
		String where = describe(key.beanType(), key.method());
		HandlerPolicy onMethod = fromAnnotations(
				AnnotatedElementUtils.findMergedAnnotation(key.method(), RateLimited.class),
				AnnotatedElementUtils.findMergedAnnotation(key.method(), RateLimitExempt.class), where,
				RouteSource.METHOD_ANNOTATION);
		if (onMethod != null) {
			return onMethod;
		}
		HandlerPolicy onClass = fromAnnotations(
				AnnotatedElementUtils.findMergedAnnotation(key.beanType(), RateLimited.class),
				AnnotatedElementUtils.findMergedAnnotation(key.beanType(), RateLimitExempt.class),
				key.beanType().getName(), RouteSource.CLASS_ANNOTATION);
		return onClass != null ? onClass : HandlerPolicy.DEFAULT;
	}

	private HandlerPolicy fromAnnotations(RateLimited limited, RateLimitExempt exempt, String where,
			RouteSource source) {
		if (limited != null && exempt != null) {
			throw new RouteInventoryException("both @RateLimited and @RateLimitExempt on " + where + "; keep one");
		}
		if (exempt != null) {
			if (!StringUtils.hasText(exempt.reason())) {
				throw new RouteInventoryException("@RateLimitExempt on " + where + " must say why (reason is blank)");
			}
			return new HandlerPolicy(null, false, true, exempt.reason(), source);
		}
		if (limited != null) {
			String budget = limited.budget().isEmpty() ? null : limited.budget();
			if (budget != null && budgets.find(budget).isEmpty()) {
				throw new RouteInventoryException("@RateLimited(budget = \"" + budget + "\") on " + where
						+ " names an unknown budget; known budgets are "
						+ budgets.all().stream().map(b -> b.name()).toList());
			}
			return new HandlerPolicy(budget, limited.expensive(), false, null, source);
		}
		return null;
	}

	static String describe(Class<?> beanType, Method method) {
		return beanType.getName() + "#" + method.getName();
	}

	private record HandlerKey(Class<?> beanType, Method method) {
	}

}
