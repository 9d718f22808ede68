package dev.limiter.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * {@code limiter.enabled} is {@code true} or missing. A class that also needs another
 * property condition uses this beside one {@code @ConditionalOnProperty}: two
 * {@code @ConditionalOnProperty} on one class compile into the
 * {@code @ConditionalOnProperties} container, which exists only from Spring Boot 3.5 and
 * which older Boots silently ignore.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@ConditionalOnProperty(prefix = "limiter", name = "enabled", havingValue = "true", matchIfMissing = true)
public @interface ConditionalOnLimiterEnabled {

}
