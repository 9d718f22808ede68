package dev.limiter.gateway.webflux;

import dev.limiter.reactive.ReactiveRateLimitFilter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.cloud.gateway.filter.WeightCalculatorWebFilter;

/**
 * Moves the gateway's {@link WeightCalculatorWebFilter}, which draws each {@code Weight}
 * group's route of a request, to just before the limiter's
 * {@link ReactiveRateLimitFilter}. The limiter asks which route serves a request before
 * the gateway's dispatcher does; with the weights not yet drawn (the gateway orders its
 * filter at {@value WeightCalculatorWebFilter#WEIGHT_CALC_FILTER_ORDER}), no route of a
 * group matches then, and a request forwarded on a {@code Limiter} route was counted
 * twice (once by the application-wide filter, once by the route's), or not at all (a
 * later {@code Limiter} route on the same path taken for the one the gateway then drew).
 * Drawn first, the limiter and the dispatcher see the same draw: one lookup, one count,
 * on the route that forwards the request. An order already before the limiter's is kept.
 */
final class WeightsDrawnBeforeTheLimiter implements BeanPostProcessor {

	private final ObjectProvider<ReactiveRateLimitFilter> limiter;

	WeightsDrawnBeforeTheLimiter(ObjectProvider<ReactiveRateLimitFilter> limiter) {
		this.limiter = limiter;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof WeightCalculatorWebFilter weights) {
			ReactiveRateLimitFilter filter = limiter.getIfUnique();
			int limiterOrder = (filter != null) ? filter.getOrder() : ReactiveRateLimitFilter.ORDER_AFTER_SECURITY;
			if (weights.getOrder() >= limiterOrder) {
				weights.setOrder(limiterOrder - 1);
			}
		}
		return bean;
	}

}
