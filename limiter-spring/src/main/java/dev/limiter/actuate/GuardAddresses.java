package dev.limiter.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.limiter.actuate.KeyCounters.BadRequest;
import dev.limiter.actuate.LimiterOperations.AddressDescriptor;
import dev.limiter.actuate.LimiterOperations.Answer;
import dev.limiter.actuate.LimiterOperations.UnblockDescriptor;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.GuardState;

/**
 * {@code /actuator/limiter/addresses/{address}}: what the authentication guard holds for
 * one client address, read without counting (GET), or its block lifted (DELETE: the block
 * and its failures dropped, in the store and on this instance; other instances see it
 * within seconds). The address is the key the guard logs ({@code addr:} + 32 hex
 * characters) or an IP literal, which is hashed the same way; anything else is a 400,
 * never echoed.
 */
final class GuardAddresses {

	static final String ADDRESSES_SEGMENT = "addresses";

	private static final Pattern ADDRESS_KEY = Pattern.compile("addr:[0-9a-f]{32}");

	private static final Pattern IP_LITERAL = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

	private final Supplier<AuthGuard> guards;

	private final Clock clock;

	GuardAddresses(Supplier<AuthGuard> guards, Clock clock) {
		this.guards = guards;
		this.clock = clock;
	}

	Answer read(String address) {
		try {
			String key = addressKey(address);
			long now = clock.millis();
			GuardState state = requireGuard().state(key, now);
			return new Answer(200,
					new AddressDescriptor(key, Instant.ofEpochMilli(now).toString(), state.failures(), state.pending(),
							state.blocked() ? Instant.ofEpochMilli(state.blockedUntilMillis()).toString() : null,
							state.proven()));
		}
		catch (BadRequest bad) {
			return bad.response();
		}
	}

	Answer unblock(String address) {
		try {
			String key = addressKey(address);
			return new Answer(200, new UnblockDescriptor(key, requireGuard().unblock(key, clock.millis())));
		}
		catch (BadRequest bad) {
			return bad.response();
		}
	}

	private AuthGuard requireGuard() {
		AuthGuard guard = guards.get();
		if (guard == null) {
			throw new BadRequest(404, "no_auth_guard", "The authentication guard is not enabled.");
		}
		return guard;
	}

	private static String addressKey(String address) {
		if (address != null && ADDRESS_KEY.matcher(address).matches()) {
			return address;
		}
		if (address != null && IP_LITERAL.matcher(address).matches()) {
			return AuthGuard.addressKey(address);
		}
		throw new BadRequest(400, "malformed_address",
				"The address must be the guard's address key ('addr:' followed by 32 lower-case hex characters, as "
						+ "the guard's log lines name it) or an IP address.");
	}

}
