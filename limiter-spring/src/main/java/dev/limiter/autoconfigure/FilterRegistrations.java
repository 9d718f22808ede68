package dev.limiter.autoconfigure;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.env.Environment;

/**
 * How the limiter's servlet filters are registered: on every path, placed relative to
 * Spring Security's chain.
 */
public final class FilterRegistrations {

	private FilterRegistrations() {
	}

	public static <F extends Filter> FilterRegistrationBean<F> of(F filter, String name, int order,
			DispatcherType first, DispatcherType... rest) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.setName(name);
		registration.setOrder(order);
		registration.setDispatcherTypes(first, rest);
		registration.addUrlPatterns("/*");
		return registration;
	}

	/** Spring Boot's property for the order of Spring Security's filter chain. */
	public static final String SECURITY_FILTER_ORDER_PROPERTY = "spring.security.filter.order";

	/**
	 * Spring Boot's default for {@value #SECURITY_FILTER_ORDER_PROPERTY}, the same on
	 * Boot 3 and Boot 4.
	 */
	public static final int DEFAULT_SECURITY_FILTER_ORDER = -100;

	/**
	 * The order of Spring Security's filter chain, configured or default: read from the
	 * property rather than from Boot's {@code SecurityProperties}, whose class and
	 * {@code getFilter()} moved in Boot 4.
	 */
	public static int securityFilterOrder(Environment environment) {
		return environment.getProperty(SECURITY_FILTER_ORDER_PROPERTY, Integer.class, DEFAULT_SECURITY_FILTER_ORDER);
	}

}
