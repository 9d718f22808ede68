package dev.limiter.autoconfigure;

/** The in-process store. */
public class MemoryProperties {

	/** Most keys held at once; the oldest or expired go first. */
	private int maxKeys = 100_000;

	public int getMaxKeys() {
		return maxKeys;
	}

	public void setMaxKeys(int maxKeys) {
		this.maxKeys = maxKeys;
	}

}
