package dev.limiter.gateway.webmvc.autoconfigure;

import dev.limiter.autoconfigure.FilterRegistrations;
import dev.limiter.autoconfigure.LimiterServletAutoConfiguration;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.server.mvc.filter.WeightCalculatorFilter;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Moves the gateway's {@link WeightCalculatorFilter}, which draws each {@code Weight}
 * group's route of a request, to just before the limiter's servlet filter. The limiter
 * finds the handler of a request before the {@code DispatcherServlet} does; with the
 * weights not yet drawn (the gateway orders its filter at
 * {@value WeightCalculatorFilter#WEIGHT_CALC_FILTER_ORDER}), no route of a group matches
 * then, and a request forwarded on a weighted route was counted on another route's budget
 * (a later route on the same path) or the default one. Drawn first, the limiter and the
 * dispatcher see the same draw. An order already before the limiter's is kept.
 */
final class WeightsDrawnBeforeTheLimiter implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware {

	private BeanFactory beanFactory;

	private Environment environment;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof WeightCalculatorFilter weights) {
			int limiterOrder = limiterOrder();
			if (weights.getOrder() >= limiterOrder) {
				weights.setOrder(limiterOrder - 1);
			}
		}
		return bean;
	}

	/** The order the limiter's filter is registered at (by the application, or ours). */
	private int limiterOrder() {
		String name = LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME;
		if (beanFactory.containsBean(name) && beanFactory.getBean(name) instanceof Ordered registration) {
			return registration.getOrder();
		}
		return FilterRegistrations.securityFilterOrder(environment)
				+ LimiterServletAutoConfiguration.ORDER_AFTER_SECURITY;
	}

}
