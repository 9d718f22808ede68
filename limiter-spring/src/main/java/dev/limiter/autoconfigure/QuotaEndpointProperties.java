package dev.limiter.autoconfigure;

/** A caller's own quota, answered at a path of the application. */
public class QuotaEndpointProperties {

	/**
	 * Path (GET) at which an authenticated caller reads its own quota, e.g. /rate-limit;
	 * unset: no such endpoint.
	 */
	private String path;

	/** How many times a minute one caller may read its quota. */
	private int limit = 60;

	public String getPath() {
		return path;
	}

	public void setPath(String path) {
		this.path = path;
	}

	public int getLimit() {
		return limit;
	}

	public void setLimit(int limit) {
		this.limit = limit;
	}

}
