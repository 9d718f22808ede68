package dev.limiter.core;

import java.util.Objects;

/**
 * A constructor or builder rejected one of its values. It names the value by a constant
 * of the rejecting type's own {@code Field} enum ({@link Window.Field},
 * {@link Budget.Field}, {@link ConcurrencyBound.Field}, ...), so that whoever supplied
 * the value (the Spring configuration, for one) can say where it came from without
 * reading the message, which stays free to change.
 */
public class InvalidValueException extends IllegalArgumentException {

	private final Enum<?> field;

	private final String reason;

	/**
	 * @param field the rejected value, a constant of the rejecting type's {@code Field}
	 * enum
	 * @param subject what the value belongs to, the start of the message (such as
	 * {@code "window 'minute': limit "})
	 * @param reason what is wrong with the value, the rest of the message (such as
	 * {@code "must be at least 1, was 0"})
	 */
	public InvalidValueException(Enum<?> field, String subject, String reason) {
		super(subject + reason);
		this.field = Objects.requireNonNull(field, "field");
		this.reason = reason;
	}

	/** Which value was rejected. */
	public Enum<?> field() {
		return field;
	}

	/**
	 * What is wrong with it, without naming it (such as {@code "must be at least 1, was
	 * 0"}).
	 */
	public String reason() {
		return reason;
	}

}
