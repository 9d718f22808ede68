package dev.limiter.autoconfigure;

/** The start-up inventory of handlers. */
public class InventoryProperties {

	/**
	 * Whether start-up fails on a handler that falls to the default budget implicitly or
	 * a rule that matches no handler.
	 */
	private boolean strict = false;

	public boolean isStrict() {
		return strict;
	}

	public void setStrict(boolean strict) {
		this.strict = strict;
	}

}
