package dev.limiter.autoconfigure;

/** The in-process fallback limiter. */
public class FallbackProperties {

	/** Most keys the fallback holds at once. */
	private int maxKeys = 100_000;

	public int getMaxKeys() {
		return maxKeys;
	}

	public void setMaxKeys(int maxKeys) {
		this.maxKeys = maxKeys;
	}

}
