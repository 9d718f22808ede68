package dev.limiter.metrics;

import dev.limiter.guard.GuardEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The authentication guard's meters: {@code limiter.auth.guard.refused} by {@code bound}
 * ({@code block}: an address blocked after too many failures, {@code pending}: too many
 * lookups in flight) and {@code limiter.auth.guard.blocks}, the addresses that reached
 * the threshold. Never an address.
 */
public class MicrometerGuardEvents implements GuardEvents {

	/** Counter of the guard's 429s. */
	public static final String REFUSED = "limiter.auth.guard.refused";

	/** Counter of the addresses blocked. */
	public static final String BLOCKS = "limiter.auth.guard.blocks";

	private final Counter refusedBlocked;

	private final Counter refusedPending;

	private final Counter blocks;

	public MicrometerGuardEvents(MeterRegistry registry) {
		this.refusedBlocked = refused(registry, "block");
		this.refusedPending = refused(registry, "pending");
		this.blocks = Counter.builder(BLOCKS)
			.description("Addresses the authentication guard blocked after too many failed authentications")
			.register(registry);
	}

	private static Counter refused(MeterRegistry registry, String bound) {
		return Counter.builder(REFUSED)
			.description("Requests the authentication guard refused with 429 before any credential lookup, by bound "
					+ "(block: a blocked address; pending: too many lookups in flight)")
			.tag("bound", bound)
			.register(registry);
	}

	@Override
	public void refused(boolean blocked) {
		(blocked ? refusedBlocked : refusedPending).increment();
	}

	@Override
	public void blocked() {
		blocks.increment();
	}

}
