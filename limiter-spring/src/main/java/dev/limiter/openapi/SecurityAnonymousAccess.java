package dev.limiter.openapi;

import java.util.function.Supplier;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;

/**
 * Asks Spring Security's {@link WebInvocationPrivilegeEvaluator} (the application's
 * filter chains and their authorization rules) whether an anonymous authentication may
 * call an operation's path and method. The path is the document's pattern read as a path
 * ({@code /owners/{ownerId}}), as the route inventory matches rules. Without an evaluator
 * bean, or when it cannot answer, the reach is {@link AnonymousAccess.Reach#UNKNOWN}.
 */
public final class SecurityAnonymousAccess implements AnonymousAccess {

	private static final Authentication ANONYMOUS = new AnonymousAuthenticationToken("limiter-openapi", "anonymousUser",
			AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"));

	private final Supplier<WebInvocationPrivilegeEvaluator> evaluator;

	/**
	 * @param evaluator supplies the application's evaluator, {@code null} when it has
	 * none
	 */
	public SecurityAnonymousAccess(Supplier<WebInvocationPrivilegeEvaluator> evaluator) {
		this.evaluator = evaluator;
	}

	@Override
	public Reach reach(String path, String method) {
		WebInvocationPrivilegeEvaluator found = evaluator.get();
		if (found == null) {
			return Reach.UNKNOWN;
		}
		try {
			return found.isAllowed(null, path, method, ANONYMOUS) ? Reach.ALLOWED : Reach.DENIED;
		}
		catch (RuntimeException ex) {
			// a matcher that cannot read the made-up request: no answer rather than a
			// guess
			return Reach.UNKNOWN;
		}
	}

}
