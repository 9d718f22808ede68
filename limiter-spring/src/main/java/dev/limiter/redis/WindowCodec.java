package dev.limiter.redis;

import java.util.List;
import java.util.stream.Collectors;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.core.WindowAlgorithm;

/**
 * One window algorithm's part of the scripts' encoding ({@link TakeScriptCodec} keeps the
 * layout around it): the code letter that selects its function block in {@code take.lua}
 * and {@code settle.lua}, its two parameters, its field name in the windows' hash, and
 * the reading of its part of the reply. One implementation per {@link WindowAlgorithm},
 * found by {@link #of}; {@code WindowCodecScriptTests} fails when a script has no block
 * for a code letter, or a block no codec sends.
 */
sealed interface WindowCodec permits FixedWindowCodec, SlidingWindowCodec, TokenBucketCodec, CalendarWindowCodec {

	/** Every codec, one per algorithm. */
	List<WindowCodec> ALL = List.of(new FixedWindowCodec(), new SlidingWindowCodec(), new TokenBucketCodec(),
			new CalendarWindowCodec());

	/** The codec of {@code algorithm}. */
	static WindowCodec of(WindowAlgorithm algorithm) {
		for (WindowCodec codec : ALL) {
			if (codec.algorithm() == algorithm) {
				return codec;
			}
		}
		throw new IllegalStateException("no script codec for the window algorithm " + algorithm);
	}

	/** The codec of {@code window}'s algorithm. */
	static WindowCodec of(Window window) {
		return of(window.algorithm());
	}

	/**
	 * What every algorithm's {@link #field} starts with: {@code <window>:<millis>}, the
	 * window's name and its length.
	 */
	static String nameAndLength(Window window) {
		return window.name() + ":" + window.durationMillis();
	}

	/**
	 * {@code parameter} followed by the window's notify-at thresholds in units, ascending
	 * and comma-separated, after a {@code /}: the form in which a fixed or a calendar
	 * window sends a parameter with its thresholds ({@code 0/80,100}); the parameter
	 * alone for a window without any.
	 */
	static String withThresholds(String parameter, Window window) {
		return window.notifyAt()
			.map((notifyAt) -> parameter + "/"
					+ notifyAt.percents()
						.stream()
						.map((percent) -> Long.toString(NotifyAt.units(window.limit(), percent)))
						.collect(Collectors.joining(",")))
			.orElse(parameter);
	}

	WindowAlgorithm algorithm();

	/** The key of its function block in the scripts' {@code algorithms} table. */
	String code();

	/**
	 * Its field name in the windows' hash (a fixed window: the common part of its two
	 * fields). What the stored value means depends on it, so a window re-declared with
	 * another algorithm or another length starts afresh, as the in-memory store decides
	 * too.
	 */
	String field(Window window);

	/**
	 * {@code take.lua}'s first parameter of the window at {@code nowMillis}: its duration
	 * unless its algorithm sends something else.
	 */
	default String firstParameter(Window window, long nowMillis) {
		return Long.toString(window.durationMillis());
	}

	/** {@code take.lua}'s second parameter of the window. */
	String secondParameter(Window window);

	/**
	 * {@code settle.lua}'s parameter of the window: its rate, {@code limit:duration},
	 * unless its algorithm settles without it.
	 */
	default String settleParameter(Window window) {
		return window.limit() + ":" + window.durationMillis();
	}

	/**
	 * The window's verdict from its part of {@code take.lua}'s reply.
	 * @param reset its reset
	 * @param second a fixed window's count, the remaining units of the others
	 * @param refused whether it had no room
	 * @param retry its retry, {@code -1} for never
	 */
	default BoundVerdict decode(Window window, long reset, long second, boolean refused, long retry) {
		return BoundVerdict.window(window, second, reset, refused, (retry < 0) ? Long.MAX_VALUE : retry);
	}

}
