package dev.limiter.autoconfigure.actuate;

import dev.limiter.actuate.LimiterOperations;
import dev.limiter.actuate.LimiterOperations.Answer;
import dev.limiter.actuate.LimiterOperations.LimiterDescriptor;
import dev.limiter.actuate.RefusedCallers;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;

/**
 * {@code /actuator/limiter} and {@code /actuator/limiter/keys/{keyHash}}: the actuator's
 * view of {@link LimiterOperations}, which holds what they answer.
 */
@Endpoint(id = "limiter")
public class LimiterEndpoint {

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
	 * counting.
	 */
	@ReadOperation
	public WebEndpointResponse<Object> key(@Selector String segment, @Selector String keyHash,
			@Nullable String budget) {
		return response(operations.key(segment, keyHash, budget));
	}

	/**
	 * Forgets one key's counters and leases in one budget ({@code budget}) or in every
	 * budget.
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> reset(@Selector String segment, @Selector String keyHash,
			@Nullable String budget) {
		return response(operations.reset(segment, keyHash, budget));
	}

	private static WebEndpointResponse<Object> response(Answer answer) {
		return new WebEndpointResponse<>(answer.body(), answer.status());
	}

}
