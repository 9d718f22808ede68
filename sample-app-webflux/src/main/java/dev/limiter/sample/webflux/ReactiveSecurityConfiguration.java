package dev.limiter.sample.webflux;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.limiter.decision.CallerKeys;
import dev.limiter.reactive.ReactiveBudgetSelector;
import dev.limiter.reactive.ReactiveProblems;
import dev.limiter.sample.TokenAuthentication;
import dev.limiter.sample.TokenService;
import dev.limiter.sample.TrialTokenAuthentication;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;
import dev.limiter.web.ProblemResponse;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.web.server.ServerWebExchange;

/**
 * sample-app's security on reactive Spring Security: opaque bearer tokens, stateless;
 * {@code /try} and {@code /public/**} open, everything else needs a token. A trial token
 * is counted as the address that minted it and put on the anonymous budget (the
 * trial-completion budget on the completion route), as in sample-app.
 */
@Configuration(proxyBeanMethods = false)
class ReactiveSecurityConfiguration {

	private static final String COMPLETION_BUDGET = "completion";

	private static final String TRIAL_COMPLETION_BUDGET = "trial-completion";

	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http, TokenService tokens) {
		return http.csrf(ServerHttpSecurity.CsrfSpec::disable)
			.httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
			.formLogin(ServerHttpSecurity.FormLoginSpec::disable)
			.securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
			// a bearer-token API keeps no session: the default request cache would create
			// a WebSession on every request (and hop to another thread to make its id)
			.requestCache((cache) -> cache.requestCache(NoOpServerRequestCache.getInstance()))
			.authorizeExchange((exchanges) -> exchanges
				.pathMatchers("/try", "/public/**", "/error", "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml")
				.permitAll()
				.anyExchange()
				.authenticated())
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(
					(exchange, ex) -> unauthorized(exchange, "invalid_request", "This route needs a bearer token.")))
			.addFilterAt(bearerTokens(tokens), SecurityWebFiltersOrder.AUTHENTICATION)
			.build();
	}

	/** No user names and passwords: only bearer tokens authenticate. */
	@Bean
	MapReactiveUserDetailsService noUsers() {
		return new MapReactiveUserDetailsService(Map.of());
	}

	@Bean
	ReactiveBudgetSelector trialTokensGetTheTrialBudgets() {
		return (exchange, principal, routeBudget) -> {
			if (!(principal instanceof TrialTokenAuthentication)) {
				return Optional.empty();
			}
			return Optional.of(COMPLETION_BUDGET.equals(routeBudget) ? TRIAL_COMPLETION_BUDGET : "anonymous");
		};
	}

	@Bean
	CredentialIdentity trialTokensCountAsTheirMintingAddress() {
		return (principal) -> (principal instanceof TrialTokenAuthentication trial)
				? CallerKey.authenticated(CallerKeys.addressCounterKey(trial.mintedBy()), trial) : null;
	}

	private static AuthenticationWebFilter bearerTokens(TokenService tokens) {
		ReactiveAuthenticationManager alreadyChecked = Mono::just;
		AuthenticationWebFilter filter = new AuthenticationWebFilter(alreadyChecked);
		filter.setServerAuthenticationConverter((exchange) -> {
			String header = exchange.getRequest().getHeaders().getFirst("Authorization");
			if (header == null) {
				return Mono.empty();
			}
			Optional<TokenService.TokenHolder> holder = Optional.empty();
			if (header.length() > 7 && header.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
				holder = tokens.authenticate(header.substring(7).trim());
			}
			return holder
				.<Mono<Authentication>>map((found) -> Mono
					.just(found.trial() ? new TrialTokenAuthentication(found) : new TokenAuthentication(found)))
				.orElseGet(() -> Mono.error(new BadCredentialsException("invalid token")));
		});
		filter.setAuthenticationFailureHandler((webFilterExchange, ex) -> unauthorized(webFilterExchange.getExchange(),
				"invalid_token", "The bearer token is malformed, unknown or revoked."));
		filter.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
		return filter;
	}

	private static Mono<Void> unauthorized(ServerWebExchange exchange, String error, String detail) {
		return ReactiveProblems.write(exchange,
				ProblemResponse.of(401, "Unauthorized")
					.detail(detail)
					.with("error", error)
					.header("WWW-Authenticate", "Bearer error=\"" + error + "\""));
	}

}
