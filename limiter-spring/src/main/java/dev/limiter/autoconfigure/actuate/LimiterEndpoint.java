package dev.limiter.autoconfigure.actuate;

import java.util.function.Supplier;

import dev.limiter.actuate.LimiterOperations;
import dev.limiter.actuate.LimiterOperations.Answer;
import dev.limiter.actuate.LimiterOperations.LimiterDescriptor;
import dev.limiter.actuate.RefusedCallers;
import dev.limiter.routes.DocumentedPatterns;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;

/**
 * {@code /actuator/limiter}, {@code /actuator/limiter/keys/{keyHash}} and
 * {@code /actuator/limiter/addresses/{address}}: the actuator's view of
 * {@link LimiterOperations}, which holds what they answer.
 */
@Endpoint(id = "limiter")
public class LimiterEndpoint {

	/** The key operations' path below the endpoint's, as the actuator registers it. */
	static final String KEY_SELECTORS = "/{segment}/{keyHash}";

	/** The same path as it answers and is documented. */
	static final String KEY_PATH = "/keys/{keyHash}";

	/** The section of the most-refused callers: {@code /actuator/limiter/refused}. */
	public static final String REFUSED = "refused";

	private final LimiterOperations operations;

	private final RefusedCallers refused;

	public LimiterEndpoint(LimiterOperations operations) {
		this(operations, null);
	}

	/**
	 * @param refused the callers this instance refused most, {@code null} when not kept
	 */
	public LimiterEndpoint(LimiterOperations operations, @Nullable RefusedCallers refused) {
		this.operations = operations;
		this.refused = refused;
	}

	@ReadOperation
	public LimiterDescriptor limiter() {
		return operations.limiter();
	}

	/**
	 * {@code /actuator/limiter/refused}: the callers this instance refused most in the
	 * last minutes ({@link RefusedCallers}); {@code limit} of them, 20 by default.
	 */
	@ReadOperation
	public WebEndpointResponse<Object> section(@Selector String section, @Nullable Integer limit) {
		if (!REFUSED.equals(section) || refused == null) {
			return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		}
		int top = (limit == null) ? 20 : Math.max(1, Math.min(limit, 100));
		return new WebEndpointResponse<>(refused.top(top), WebEndpointResponse.STATUS_OK);
	}

	/**
	 * One key's counters in one budget ({@code budget}) or in every budget, read without
	 * counting; or ({@code addresses/{address}}) what the authentication guard holds for
	 * an address.
	 */
	@ReadOperation
	public WebEndpointResponse<Object> key(@Selector String segment, @Selector String keyHash,
			@Nullable String budget) {
		return response(operations.key(segment, keyHash, budget));
	}

	/**
	 * Forgets one key's counters and leases in one budget ({@code budget}) or in every
	 * budget; or ({@code addresses/{address}}) lifts the address's authentication-guard
	 * block.
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> reset(@Selector String segment, @Selector String keyHash,
			@Nullable String budget) {
		return response(operations.reset(segment, keyHash, budget));
	}

	/**
	 * Shows the key operations under the path they answer,
	 * {@code /actuator/limiter/keys/{keyHash}}, rather than their selectors.
	 * @param endpointPath the endpoint's path ({@code /actuator/limiter}), {@code null}
	 * when it is not mapped
	 */
	static DocumentedPatterns documentedPatterns(Supplier<String> endpointPath) {
		return (registered) -> {
			String path = endpointPath.get();
			return (path != null && registered.equals(path + KEY_SELECTORS)) ? path + KEY_PATH : registered;
		};
	}

	private static WebEndpointResponse<Object> response(Answer answer) {
		return new WebEndpointResponse<>(answer.body(), answer.status());
	}

}
