package dev.limiter.servlet;

import java.security.Principal;
import java.util.Locale;
import java.util.function.Function;

import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import jakarta.servlet.http.HttpServletRequest;

/**
 * docs/security.md ("Keys"): an authenticated request carrying a bearer token is keyed on the SHA-256 of the token
 * ({@code t:}), another authenticated request on the SHA-256 of its principal's name ({@code p:}), and a request
 * without a credential on {@code request.getRemoteAddr()} ({@code a:}).
 *
 * <p>The token is only trusted once authentication has accepted the request: an unauthenticated request with a
 * made-up {@code Authorization} header is keyed on its address, so noise cannot mint counters.
 */
public class DefaultKeyResolver implements KeyResolver {

    public static final String TOKEN_PREFIX = "t:";
    public static final String PRINCIPAL_PREFIX = "p:";
    public static final String ADDRESS_PREFIX = "a:";

    private static final String BEARER = "bearer ";

    private static final java.util.regex.Pattern IP_LITERAL = java.util.regex.Pattern.compile("[0-9A-Fa-f:.]{1,45}");

    private final Function<HttpServletRequest, Principal> authenticatedPrincipal;

    /**
     * @param authenticatedPrincipal finds the principal that authentication accepted, {@code null} when the
     *                               request is unauthenticated (or anonymous)
     */
    public DefaultKeyResolver(Function<HttpServletRequest, Principal> authenticatedPrincipal) {
        this.authenticatedPrincipal = authenticatedPrincipal;
    }

    /** Reads the container's {@link HttpServletRequest#getUserPrincipal()}; for applications without Spring Security. */
    public static DefaultKeyResolver fromUserPrincipal() {
        return new DefaultKeyResolver(HttpServletRequest::getUserPrincipal);
    }

    @Override
    public CallerKey resolve(HttpServletRequest request) {
        Principal principal = authenticatedPrincipal.apply(request);
        if (principal == null) {
            return CallerKey.anonymous(ADDRESS_PREFIX + addressKey(request.getRemoteAddr()));
        }
        String token = bearerToken(request);
        if (token != null) {
            return CallerKey.authenticated(TOKEN_PREFIX + TokenHashing.sha256(token), principal);
        }
        String name = principal.getName() == null ? "" : principal.getName();
        return CallerKey.authenticated(PRINCIPAL_PREFIX + TokenHashing.sha256(name), principal);
    }

    /**
     * An IP literal as it is; anything else (a proxy header forwarded verbatim can make the address any text of
     * any length) as its hash, so a key stays short and never carries request input into a store or a log.
     */
    static String addressKey(String address) {
        if (address != null && IP_LITERAL.matcher(address).matches()) {
            return address;
        }
        return "h:" + TokenHashing.sha256(String.valueOf(address));
    }

    static String bearerToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || header.length() <= BEARER.length()
                || !header.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return null;
        }
        String token = header.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }
}
