package dev.limiter.autoconfigure;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** How the limiter's servlet filters are registered: on every path, placed relative to Spring Security's chain. */
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

    /** The order of Spring Security's filter chain, configured or default. */
    public static int securityFilterOrder(ObjectProvider<SecurityProperties> securityProperties) {
        SecurityProperties security = securityProperties.getIfAvailable();
        return security != null ? security.getFilter().getOrder() : SecurityProperties.DEFAULT_FILTER_ORDER;
    }
}
