package dev.limiter.sample;

import java.util.Optional;

import dev.limiter.servlet.DefaultKeyResolver;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.CredentialIdentity;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final String COMPLETION_BUDGET = "completion";

	private static final String TRIAL_COMPLETION_BUDGET = "trial-completion";

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http, TokenService tokens) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.httpBasic(basic -> basic.disable())
			.formLogin(form -> form.disable())
			.sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize
				.requestMatchers("/try", "/public/**", "/actuator/health/**", "/actuator/health", "/error",
						"/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml")
				.permitAll()
				// The operations surface reads every caller's counters and can reset
				// them: operators only.
				.requestMatchers("/actuator/**")
				.hasAuthority(TokenAuthentication.OPERATOR)
				.anyRequest()
				.authenticated())
			.exceptionHandling(exceptions -> exceptions
				.authenticationEntryPoint((request, response, ex) -> Problems.unauthorized(response, "invalid_request",
						"This route needs a bearer token."))
				.accessDeniedHandler((request, response, ex) -> Problems.forbidden(response,
						"This route needs an operator's token.")))
			.addFilterBefore(new BearerTokenFilter(tokens), AnonymousAuthenticationFilter.class)
			.build();
	}

	/**
	 * Keeps Spring Boot from generating a default user and logging its password: tokens
	 * are the only way in.
	 */
	@Bean
	UserDetailsService noUsers() {
		return new InMemoryUserDetailsManager();
	}

	/**
	 * The limiter's extension point: a token minted by POST /try gets the anonymous
	 * budget's bounds, and on the completion route the trial plan's own budget, whose
	 * tokens window holds what a trial may spend (the anonymous budget counts no tokens).
	 */
	@Bean
	BudgetSelector trialTokensGetTheTrialBudgets() {
		return (request, principal, routeBudget) -> {
			if (!(principal instanceof TrialTokenAuthentication)) {
				return Optional.empty();
			}
			return Optional.of(COMPLETION_BUDGET.equals(routeBudget) ? TRIAL_COMPLETION_BUDGET : "anonymous");
		};
	}

	/**
	 * The limiter's credential hook: a trial token is counted under the key of the
	 * address that minted it, the key an anonymous request from that address has, so that
	 * all of one address's trial tokens and its requests without a token share one set of
	 * anonymous counters.
	 */
	@Bean
	CredentialIdentity trialTokensCountAsTheirMintingAddress() {
		return principal -> principal instanceof TrialTokenAuthentication trial
				? CallerKey.authenticated(DefaultKeyResolver.addressCounterKey(trial.mintedBy()), trial) : null;
	}

}
