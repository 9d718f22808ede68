package dev.limiter.web;

/**
 * The one home of the members of the limiter's problem bodies (RFC 9457 and the limiter's
 * own), each with its meaning, as {@code docs/http-contract.md} lists them in its table
 * of a refusal's body ({@code RateLimitHeaderDocumentedTests} holds the page and this
 * type equal).
 */
public enum ProblemMember {

	/** RFC 9457's type. */
	TYPE("type", "https://iana.org/assignments/http-problem-types#quota-exceeded, or about:blank"),

	/** RFC 9457's title. */
	TITLE("title", "Too Many Requests"),

	/** RFC 9457's status. */
	STATUS("status", "The status code"),

	/** RFC 9457's detail. */
	DETAIL("detail", "Which budget, which bound, how long to wait"),

	/** The stable error code, for programs. */
	ERROR("error", "A stable code for programs, such as rate_limit_exceeded"),

	/** The detail again, for clients that expect a message. */
	MESSAGE("message", "The same sentence as detail"),

	/** The wait in seconds. */
	RETRY_AFTER("retryAfter", "The same number as Retry-After"),

	/** The refusing bound's size. */
	LIMIT("limit", "The refusing bound's size"),

	/** What is left in the refusing bound. */
	REMAINING("remaining", "0 for the refusing bound"),

	/** When the refusing bound frees room. */
	RESET_TIME("resetTime", "When the refusing bound frees room"),

	/** The budget's name. */
	BUDGET("budget", "The budget's name"),

	/** The refusing bound's name. */
	BOUND("bound", "The refusing window's name, or concurrency"),

	/** The refusing window's unit, when it counts something other than requests. */
	UNIT("unit", "The refusing window's unit, when it is not requests"),

	/** The IETF draft's member naming the refusing policies. */
	VIOLATED_POLICIES("violated-policies",
			"The refusing policies as named in RateLimit-Policy (with the IETF headers on)");

	private final String member;

	private final String meaning;

	ProblemMember(String member, String meaning) {
		this.member = member;
		this.meaning = meaning;
	}

	/** The member's name in the JSON body. */
	public String member() {
		return this.member;
	}

	/** One line: what the member says. */
	public String meaning() {
		return this.meaning;
	}

}
