package dev.limiter.openapi;

import java.util.Locale;

/**
 * Whether a caller without a credential reaches an operation at all, asked when the
 * OpenAPI document is built: the anonymous budget is advertised only where such a caller
 * can spend it, and where nothing can tell, the document says so.
 */
@FunctionalInterface
public interface AnonymousAccess {

	/** Nothing to ask: every operation is {@link Reach#UNKNOWN}. */
	AnonymousAccess UNKNOWN = (path, method) -> Reach.UNKNOWN;

	/**
	 * @param path the operation's path as the document writes it
	 * ({@code /owners/{ownerId}})
	 * @param method the HTTP method ({@code GET})
	 */
	Reach reach(String path, String method);

	/** What is known of an anonymous caller's access to one operation. */
	enum Reach {

		/** The application lets an anonymous caller through to the handler. */
		ALLOWED,

		/** The application refuses an anonymous caller before the limiter counts it. */
		DENIED,

		/** Nothing the limiter can read says. */
		UNKNOWN;

		/**
		 * As the document writes it: {@code allowed}, {@code denied}, {@code unknown}.
		 */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
