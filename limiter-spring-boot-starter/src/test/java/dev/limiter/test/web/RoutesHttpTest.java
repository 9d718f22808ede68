package dev.limiter.test.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.TestPropertySource;

/**
 * A {@link RoutesTestApplication} on a random port with the budgets its controllers name
 * ({@code tight}, {@code loose}, {@code per-route}); a test adds its own properties.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(classes = RoutesTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestPropertySource(properties = {
		// The auth guard counts in the same store; these tests assert on the limiter's
		// own keys.
		"limiter.auth-guard.enabled=false", "limiter.budgets.tight.windows.minute.limit=2",
		"limiter.budgets.tight.windows.minute.duration=1m", "limiter.budgets.loose.windows.minute.limit=100",
		"limiter.budgets.loose.windows.minute.duration=1m", "limiter.budgets.per-route.windows.minute.limit=3",
		"limiter.budgets.per-route.windows.minute.duration=1m" })
public @interface RoutesHttpTest {

	/** Properties this test adds to the common ones. */
	@AliasFor(annotation = SpringBootTest.class, attribute = "properties")
	String[] properties() default {};

}
