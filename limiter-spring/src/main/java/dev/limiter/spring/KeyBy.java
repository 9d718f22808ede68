package dev.limiter.spring;

/**
 * What an authenticated request is counted by: {@code limiter.key-by} and
 * {@code limiter.budgets.<name>.key-by}.
 */
public enum KeyBy {

	/**
	 * The credential authentication accepted ({@code t:}), or the principal's name when
	 * the authentication exposes no credential ({@code p:}): every token has its own
	 * budget.
	 */
	CREDENTIAL,

	/**
	 * Who the credential belongs to ({@code p:}): a JWT's issuer and subject, another
	 * authentication's principal name. Every token of one subject shares one budget, so
	 * re-minting a token does not buy a fresh one.
	 */
	PRINCIPAL

}
