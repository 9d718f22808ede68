package dev.limiter.reactive;

import java.util.Optional;

import dev.limiter.spring.RateLimitUsage;

import org.springframework.web.server.ServerWebExchange;

/**
 * What a reactive handler reports of the units its request used (tokens, bytes), settled
 * against the reservation when the response ends; the reactive counterpart of
 * {@code RateLimitUsage.report(request, unit, amount)} of a servlet handler.
 */
public final class ReactiveRateLimitUsage {

	private ReactiveRateLimitUsage() {
	}

	/**
	 * Adds {@code amount} of {@code unit} to what the request reports; nothing when its
	 * budget reserved no units.
	 */
	public static void report(ServerWebExchange exchange, String unit, long amount) {
		of(exchange).ifPresent((usage) -> usage.add(unit, amount));
	}

	/** The request's usage, when its budget reserved units. */
	public static Optional<RateLimitUsage> of(ServerWebExchange exchange) {
		return (exchange.getAttribute(RateLimitUsage.ATTRIBUTE) instanceof RateLimitUsage usage) ? Optional.of(usage)
				: Optional.empty();
	}

}
