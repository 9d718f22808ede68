package dev.limiter.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Counts the requests of a handler method (or of every handler method of a controller
 * class) against a named budget, optionally as expensive (each request also holds one of
 * the budget's concurrency leases).
 *
 * <p>
 * Precedence, highest first: a matching {@code limiter.routes} rule, this annotation on
 * the method, this annotation (or {@link RateLimitExempt}) on the class,
 * {@code limiter.default-budget}. A budget name that is not configured fails start-up
 * naming the class and method. Unauthenticated requests always use the anonymous budget.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RateLimited {

	/**
	 * The budget's name ({@code limiter.budgets.<name>}); empty means
	 * {@code limiter.default-budget}.
	 */
	String budget() default "";

	/**
	 * Whether each request also takes a concurrency lease of the budget until it
	 * completes.
	 */
	boolean expensive() default false;

	/**
	 * What each request reserves, per unit other than requests, before the handler runs
	 * (a unit not named reserves 1); the handler reports what it used through
	 * {@link RateLimitUsage}.
	 */
	Estimate[] estimates() default {};

	/** One unit's estimate, such as {@code @Estimate(unit = "tokens", amount = 100)}. */
	@Target({})
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@interface Estimate {

		/** The unit, as a window's {@code unit} names it. */
		String unit();

		/** What a request reserves of it; at least 1. */
		long amount();

	}

}
