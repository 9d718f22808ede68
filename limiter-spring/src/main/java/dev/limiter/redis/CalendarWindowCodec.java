package dev.limiter.redis;

import java.util.stream.Collectors;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * A calendar window in the scripts: code {@code c}; a fixed window's two fields
 * {@code <field>:r} (the end of the period counted in) and {@code <field>:c} (its count),
 * where the field is {@code <window>:<period>} (such as
 * {@code month:month@Europe/Berlin}), and {@code <field>:n}, the highest notify-at
 * threshold reached in the period; parameters: the end of the period that contains now
 * (the script has no time-zone database: Java computes it), and the notify-at thresholds
 * in units (nothing is carried into the next period); settled as {@code limit:0}.
 */
final class CalendarWindowCodec implements WindowCodec {

	@Override
	public WindowAlgorithm algorithm() {
		return WindowAlgorithm.CALENDAR;
	}

	@Override
	public String code() {
		return "c";
	}

	@Override
	public String field(Window window) {
		return window.name() + ":" + window.calendar().orElseThrow();
	}

	@Override
	public String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.resetAt(nowMillis));
	}

	/** Its notify-at thresholds in units, ascending and comma-separated; "" for none. */
	@Override
	public String secondParameter(Window window) {
		return window.notifyAt()
			.map((notifyAt) -> notifyAt.percents()
				.stream()
				.map((percent) -> Long.toString(NotifyAt.units(window.limit(), percent)))
				.collect(Collectors.joining(",")))
			.orElse("");
	}

	@Override
	public String settleParameter(Window window) {
		return window.limit() + ":0";
	}

	@Override
	public BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, second, reset, refused);
	}

}
