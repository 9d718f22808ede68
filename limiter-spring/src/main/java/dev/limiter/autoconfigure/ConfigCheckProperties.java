package dev.limiter.autoconfigure;

/**
 * {@code limiter.config-check.*}: which sources the start-up check of unknown
 * {@code limiter.*} keys reads.
 */
public class ConfigCheckProperties {

	/**
	 * Whether LIMITER_* environment variables and limiter.* system properties that bind
	 * to no limiter property stop start-up, as an unknown key in a configuration file
	 * does; false for a platform that sets LIMITER_* variables for something else.
	 */
	private boolean environment = true;

	public boolean isEnvironment() {
		return environment;
	}

	public void setEnvironment(boolean environment) {
		this.environment = environment;
	}

}
