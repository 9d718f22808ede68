package dev.limiter.decision;

/**
 * Told of each caller the limiter refused (a 429; never a shadow refusal), whichever web
 * stack refused it: the {@code limiter} endpoint's most-refused callers are counted this
 * way on a reactive request, where no servlet instrumentation follows it.
 */
@FunctionalInterface
public interface CallerRefusals {

	/**
	 * One refusal.
	 * @param key the caller's key in {@code budget}, as the endpoint's key lookup takes
	 * it; never a token
	 * @param budget the budget that refused it
	 * @param principal the authenticated principal's name, {@code null} when there was
	 * none
	 */
	void refused(String key, String budget, String principal);

}
