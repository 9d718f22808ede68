package dev.limiter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One route rule: which requests it matches and how they are counted. */
public class RouteProperties {

	/**
	 * Spring PathPattern the request path must match, such as /s/recall or /actuator/**.
	 */
	private String pattern;

	/** HTTP methods the rule applies to; empty means every method. */
	private List<String> methods = new ArrayList<>();

	/** Budget for matching authenticated requests; the default budget when unset. */
	private String budget;

	/** Whether matching requests also take a concurrency lease. */
	private boolean expensive = false;

	/** Whether matching requests are not limited at all; needs a reason. */
	private boolean exempt = false;

	/** Why an exempt route is exempt; required when exempt is true. */
	private String reason;

	/**
	 * Per unit other than requests (such as tokens), what a matching request reserves
	 * before its handler runs; a unit not named reserves 1.
	 */
	private Map<String, Long> estimates = new LinkedHashMap<>();

	public String getPattern() {
		return pattern;
	}

	public void setPattern(String pattern) {
		this.pattern = pattern;
	}

	public List<String> getMethods() {
		return methods;
	}

	public void setMethods(List<String> methods) {
		this.methods = methods;
	}

	public String getBudget() {
		return budget;
	}

	public void setBudget(String budget) {
		this.budget = budget;
	}

	public boolean isExpensive() {
		return expensive;
	}

	public void setExpensive(boolean expensive) {
		this.expensive = expensive;
	}

	public boolean isExempt() {
		return exempt;
	}

	public void setExempt(boolean exempt) {
		this.exempt = exempt;
	}

	public Map<String, Long> getEstimates() {
		return estimates;
	}

	public void setEstimates(Map<String, Long> estimates) {
		this.estimates = estimates;
	}

	public String getReason() {
		return reason;
	}

	public void setReason(String reason) {
		this.reason = reason;
	}

}
