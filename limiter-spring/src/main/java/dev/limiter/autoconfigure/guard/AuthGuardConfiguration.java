package dev.limiter.autoconfigure.guard;

import dev.limiter.autoconfigure.InvalidLimiterConfigurationException;
import dev.limiter.autoconfigure.LimiterSettings;
import dev.limiter.autoconfigure.LimiterSettingsConfiguration;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.guard.AuthGuard;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.resilience.FailurePolicy;
import dev.limiter.resilience.StoreStack;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The authentication guard ({@code limiter.auth-guard.*}) over the limiter's store, so a
 * block holds across instances on Redis: imported by the servlet guard's
 * auto-configuration and by the reactive one alike, each of which adds its own filters.
 */
@Configuration(proxyBeanMethods = false)
@Import(LimiterSettingsConfiguration.class)
public class AuthGuardConfiguration {

	@Bean
	@ConditionalOnMissingBean
	public AuthGuard limiterAuthGuard(LimiterSettings settings, ObjectProvider<RateLimitStore> stores,
			ObjectProvider<FailurePolicy> failurePolicies) {
		RateLimitStore store = stores.getIfAvailable();
		if (store == null) {
			throw new InvalidLimiterConfigurationException("limiter.store", "names a store that no RateLimitStore "
					+ "bean provides; the authentication guard counts in the limiter's store");
		}
		AuthGuardPolicy policy = settings.authGuard().orElseGet(AuthGuardPolicy::defaults);
		// built beside the limiter's store, by the one class that knows the stack
		return new AuthGuard(StoreStack.guard(store, policy, failurePolicies.getIfAvailable()), policy);
	}

}
