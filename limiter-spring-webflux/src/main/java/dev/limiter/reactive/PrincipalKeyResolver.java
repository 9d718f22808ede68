package dev.limiter.reactive;

import java.net.InetSocketAddress;
import java.security.Principal;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import dev.limiter.decision.CallerKeys;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * The default {@link ReactiveKeyResolver}: an authenticated principal keyed by the
 * {@link CredentialIdentity} beans in order, a {@code RateLimitCredential} or the hash of
 * its name ({@link CallerKeys}, the servlet filter's own rules); a request without one on
 * its remote address ({@code a:}). The {@code Authorization} header is never read.
 */
public final class PrincipalKeyResolver implements ReactiveKeyResolver {

	private final Function<ServerWebExchange, Mono<Principal>> authenticatedPrincipal;

	private final CallerKeys keys;

	/**
	 * @param authenticatedPrincipal the principal that authentication accepted, empty
	 * when the request is unauthenticated (or anonymous)
	 * @param identities asked in order for the key of an authenticated principal
	 */
	public PrincipalKeyResolver(Function<ServerWebExchange, Mono<Principal>> authenticatedPrincipal,
			List<CredentialIdentity> identities) {
		this.authenticatedPrincipal = Objects.requireNonNull(authenticatedPrincipal, "authenticatedPrincipal");
		this.keys = new CallerKeys(identities);
	}

	@Override
	public Mono<CallerKey> resolve(ServerWebExchange exchange) {
		return authenticatedPrincipal.apply(exchange)
			.map(keys::identify)
			.switchIfEmpty(Mono.fromSupplier(() -> CallerKeys.anonymous(remoteAddress(exchange))));
	}

	/**
	 * The client's address as the servlet container gives it ({@code getRemoteAddr}): an
	 * IP literal, or the host as given when it was never resolved; a forwarded address
	 * once Spring's {@code ForwardedHeaderTransformer} applied it.
	 */
	static String remoteAddress(ServerWebExchange exchange) {
		InetSocketAddress address = exchange.getRequest().getRemoteAddress();
		if (address == null) {
			return "";
		}
		return (address.getAddress() != null) ? address.getAddress().getHostAddress() : address.getHostString();
	}

}
