package dev.limiter.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Takes a handler method (or every handler method of a controller class) out of rate
 * limiting. The only way, besides an exempt {@code limiter.routes} rule, for a request to
 * be unlimited; the reason is mandatory and is shown in the start-up inventory and the
 * {@code limiter} actuator endpoint.
 *
 * <p>
 * Same precedence as {@link RateLimited}: a matching route rule wins over the method, the
 * method over the class.
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RateLimitExempt {

	/**
	 * Why requests to this handler are not limited, such as "load balancer probe"; must
	 * not be blank.
	 */
	String reason();

}
