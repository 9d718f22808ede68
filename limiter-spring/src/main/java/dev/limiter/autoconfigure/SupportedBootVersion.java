package dev.limiter.autoconfigure;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Stops start-up on a Spring Boot older than the starter supports, before any
 * auto-configuration is evaluated: below the floor its conditions and bean definitions
 * misbehave in ways that surface as misleading property errors ("'limiter.store' is
 * 'redis'" when it was never set).
 */
public class SupportedBootVersion implements EnvironmentPostProcessor {

	/** The oldest supported Spring Boot line. */
	public static final int FLOOR_MAJOR = 3;

	public static final int FLOOR_MINOR = 4;

	static final String SUPPORTED = "Spring Boot 3.4.x and 3.5.x";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		check(SpringBootVersion.getVersion());
	}

	/**
	 * Throws {@link UnsupportedBootVersionException} when {@code version} is below the
	 * floor; unknown passes.
	 */
	static void check(String version) {
		if (version == null || version.isBlank()) {
			// a repackaged jar may hide the version; nothing sure to say then
			return;
		}
		String[] parts = version.split("[.-]");
		try {
			int major = Integer.parseInt(parts[0]);
			int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
			if (major < FLOOR_MAJOR || (major == FLOOR_MAJOR && minor < FLOOR_MINOR)) {
				throw new UnsupportedBootVersionException("limiter-spring-boot-starter supports " + SUPPORTED
						+ " (JDK 17 to 25); this application runs Spring Boot " + version);
			}
		}
		catch (NumberFormatException ex) {
			// not a version this check can read
		}
	}

	/** Start-up failure for a Spring Boot below the supported floor. */
	public static class UnsupportedBootVersionException extends IllegalStateException {

		public UnsupportedBootVersionException(String message) {
			super(message);
		}

	}

}
