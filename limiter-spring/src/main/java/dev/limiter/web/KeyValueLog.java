package dev.limiter.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The limiter's WARN and INFO lines with their facts as key-value pairs (SLF4J 2's fluent
 * API), so that structured logging ({@code logging.structured.format.console=ecs} or
 * {@code logstash}, Spring Boot 3.4+) emits each fact as a field; the message stays the
 * human-readable line.
 */
public final class KeyValueLog {

	private final Logger logger;

	private KeyValueLog(Logger logger) {
		this.logger = logger;
	}

	/** The log of logger {@code name}. */
	public static KeyValueLog named(String name) {
		return new KeyValueLog(LoggerFactory.getLogger(name));
	}

	/** The log of the logger named after {@code type}. */
	public static KeyValueLog of(Class<?> type) {
		return new KeyValueLog(LoggerFactory.getLogger(type));
	}

	/**
	 * Logs {@code message} at WARN with {@code keyValues}: names and values in turn.
	 */
	public void warn(String message, Object... keyValues) {
		if (logger.isWarnEnabled()) {
			log(logger.atWarn(), message, keyValues);
		}
	}

	/**
	 * Logs {@code message} at INFO with {@code keyValues}: names and values in turn.
	 */
	public void info(String message, Object... keyValues) {
		if (logger.isInfoEnabled()) {
			log(logger.atInfo(), message, keyValues);
		}
	}

	private static void log(LoggingEventBuilder event, String message, Object[] keyValues) {
		for (int i = 0; i + 1 < keyValues.length; i += 2) {
			event = event.addKeyValue(String.valueOf(keyValues[i]), keyValues[i + 1]);
		}
		event.log(message);
	}

}
