package dev.limiter.autoconfigure;

import java.time.Duration;

import dev.limiter.core.guard.AuthGuardPolicy;

/** The authentication-failure guard, {@code limiter.auth-guard.*}. */
public class AuthGuardProperties {

	/** Whether the guard runs; it is only installed when Spring Security is present. */
	private boolean enabled = true;

	/** Failed authentications from one address, inside the window, that start a block. */
	private int threshold = AuthGuardPolicy.DEFAULT_THRESHOLD;

	/** How long a failed authentication counts against its address after it happened. */
	private Duration window = AuthGuardPolicy.DEFAULT_WINDOW;

	/** How long an address that reached the threshold is refused. */
	private Duration block = AuthGuardPolicy.DEFAULT_BLOCK;

	/**
	 * Credential lookups one address may have in flight at once; more get a transient
	 * 429.
	 */
	private int maxPending = AuthGuardPolicy.DEFAULT_MAX_PENDING;

	/**
	 * How long an instance remembers a credential it saw authenticate (and the limiter
	 * admit) from an address, at most the window; meanwhile its lookups from that address
	 * take no reservation and cost the store nothing, through a block too. Zero turns the
	 * memory off.
	 */
	private Duration rememberAuthenticated = AuthGuardPolicy.DEFAULT_REMEMBER_AUTHENTICATED;

	public Duration getRememberAuthenticated() {
		return rememberAuthenticated;
	}

	public void setRememberAuthenticated(Duration rememberAuthenticated) {
		this.rememberAuthenticated = rememberAuthenticated;
	}

	public boolean isEnabled() {
		return enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getThreshold() {
		return threshold;
	}

	public void setThreshold(int threshold) {
		this.threshold = threshold;
	}

	public Duration getWindow() {
		return window;
	}

	public void setWindow(Duration window) {
		this.window = window;
	}

	public Duration getBlock() {
		return block;
	}

	public void setBlock(Duration block) {
		this.block = block;
	}

	public int getMaxPending() {
		return maxPending;
	}

	public void setMaxPending(int maxPending) {
		this.maxPending = maxPending;
	}

}
