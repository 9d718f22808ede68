package dev.limiter.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the sample service. */
@ConfigurationProperties("sample")
public class SampleProperties {

	/**
	 * A token that always authenticates as 'demo' with the standard budget; sp_ plus 32
	 * base62 characters.
	 */
	private String demoToken;

	/**
	 * More tokens that authenticate like the demo token, each counted apart (empty by
	 * default): what benchmarks/run spreads its load over; never for production.
	 */
	private List<String> extraDemoTokens = new ArrayList<>();

	/** How long the expensive routes (/s/recall, /s/remember) pretend to work. */
	private Duration expensiveDelay = Duration.ofMillis(200);

	/** How long a trial token minted by POST /try authenticates. */
	private Duration trialTokenLifetime = Duration.ofHours(1);

	/** How many trial tokens are held at most; minting one more forgets the oldest. */
	private int maxTrialTokens = 10_000;

	public Duration getTrialTokenLifetime() {
		return trialTokenLifetime;
	}

	public void setTrialTokenLifetime(Duration trialTokenLifetime) {
		this.trialTokenLifetime = trialTokenLifetime;
	}

	public int getMaxTrialTokens() {
		return maxTrialTokens;
	}

	public void setMaxTrialTokens(int maxTrialTokens) {
		this.maxTrialTokens = maxTrialTokens;
	}

	public String getDemoToken() {
		return demoToken;
	}

	public void setDemoToken(String demoToken) {
		this.demoToken = demoToken;
	}

	public List<String> getExtraDemoTokens() {
		return extraDemoTokens;
	}

	public void setExtraDemoTokens(List<String> extraDemoTokens) {
		this.extraDemoTokens = extraDemoTokens;
	}

	public Duration getExpensiveDelay() {
		return expensiveDelay;
	}

	public void setExpensiveDelay(Duration expensiveDelay) {
		this.expensiveDelay = expensiveDelay;
	}

}
