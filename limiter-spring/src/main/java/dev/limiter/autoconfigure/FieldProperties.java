package dev.limiter.autoconfigure;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.SliceTerms;
import dev.limiter.core.Window;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.redis.RedisRateLimitStore;

/**
 * Which property sets each field a core type (or a store's builder) may reject, and the
 * error that names it: the one mapping from {@link InvalidValueException#field()} to a
 * property, read by {@link LimiterConfigurationResolver} and the Redis store's
 * auto-configuration. No message is ever read, so a reworded message cannot move an error
 * to another property.
 */
public final class FieldProperties {

	private static final String PREFIX = "limiter.";

	private FieldProperties() {
	}

	/**
	 * The error for a value a core type (or a store's builder) rejected: it names
	 * {@code at} followed by the rejected field's property ({@link #property(Enum)}), and
	 * gives the exception's reason.
	 * @param at the property path of the value being built, without {@code limiter.}
	 * (such as {@code budgets.standard.windows.minute}, or {@code redis} for the Redis
	 * store's builder)
	 */
	public static InvalidLimiterConfigurationException invalid(String at, InvalidValueException ex) {
		String property = property(ex.field());
		if (property == null) {
			return invalid(at, ex.getMessage());
		}
		return invalid(property.isEmpty() ? at : at + "." + property, ex.reason());
	}

	/**
	 * The property that sets a field, relative to the path of the value the field belongs
	 * to: {@code "limit"} for {@link Window.Field#LIMIT} (under
	 * {@code budgets.<budget>.windows.<window>}), {@code ""} for a value named by its own
	 * key (a window's or a budget's name), {@code null} for a field no property sets (the
	 * error then names the value's path and keeps the whole message).
	 *
	 * <p>
	 * Adding a field: give the type's {@code Field} enum its constant (a window's
	 * {@code BURST}, say), throw {@link InvalidValueException} with it, and add its one
	 * {@code case} line below ({@code case BURST -> "burst";}). The switches are
	 * exhaustive, so the build fails until the line is there; a new type with its own
	 * {@code Field} enum gets its own {@code if} and switch.
	 */
	static String property(Enum<?> field) {
		if (field instanceof Window.Field window) {
			return switch (window) {
				case NAME -> "";
				case LIMIT -> "limit";
				case DURATION -> "duration";
				case ALGORITHM -> "algorithm";
				case BURST -> "burst";
				case RESOLUTION -> "resolution";
				case UNIT -> "unit";
				case MAX_REPORT -> "max-report";
				case CALENDAR -> "calendar";
				case ZONE -> "zone";
				case WEEK_START -> "week-start";
				case NOTIFY_AT -> "notify-at";
			};
		}
		if (field instanceof Budget.Field budget) {
			return switch (budget) {
				case NAME -> "";
				case WINDOWS -> "windows";
				// a request's argument, checked when it is counted
				case COST -> null;
				// checked per unit under routes[i].estimates.<unit>, the value's own key
				case ESTIMATE -> "";
			};
		}
		if (field instanceof ConcurrencyBound.Field bound) {
			return switch (bound) {
				case MAX -> "max";
				case LEASE -> "lease";
			};
		}
		if (field instanceof SliceTerms.Field slice) {
			return switch (slice) {
				case MAX -> "max";
				case TTL -> "ttl";
			};
		}
		if (field instanceof AuthGuardPolicy.Field guard) {
			return switch (guard) {
				case THRESHOLD -> "threshold";
				case WINDOW -> "window";
				case BLOCK -> "block";
				case MAX_PENDING -> "max-pending";
				case REMEMBER_AUTHENTICATED -> "remember-authenticated";
				// fixed at AuthGuardPolicy.DEFAULT_LOOKUP_LEASE
				case LOOKUP_LEASE -> null;
			};
		}
		if (field instanceof RedisRateLimitStore.Field redis) {
			return switch (redis) {
				case KEY_PREFIX -> "key-prefix";
				case TIMEOUT -> "timeout";
				// left at the builder's defaults
				case EXPIRY_MARGIN, MAX_BLOCKING_CALLS -> null;
			};
		}
		return null;
	}

	/** The error naming {@code limiter.<property>}. */
	static InvalidLimiterConfigurationException invalid(String property, String reason) {
		return new InvalidLimiterConfigurationException(PREFIX + property, reason);
	}

}
