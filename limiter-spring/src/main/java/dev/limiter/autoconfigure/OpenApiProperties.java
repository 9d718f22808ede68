package dev.limiter.autoconfigure;

/** {@code limiter.openapi.*}: the limits written into springdoc's OpenAPI document. */
public class OpenApiProperties {

	/**
	 * Whether counted operations gain their 429, counter headers and x-ratelimit
	 * extension (when springdoc-openapi is on the classpath).
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
