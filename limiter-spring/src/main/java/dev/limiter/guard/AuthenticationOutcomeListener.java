package dev.limiter.guard;

import org.springframework.context.ApplicationListener;
import org.springframework.security.authentication.event.AbstractAuthenticationEvent;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.AuthenticationSuccessEvent;

/**
 * Hears Spring Security's authentication events (published synchronously, on the
 * request's thread, by a {@code ProviderManager} with an event publisher) and tells the
 * attempt that thread is running: a success event proves the credential even when
 * authorization later refuses the request, and a failure event counts even when the
 * application turns it into something other than a 401.
 */
public class AuthenticationOutcomeListener implements ApplicationListener<AbstractAuthenticationEvent> {

	@Override
	public void onApplicationEvent(AbstractAuthenticationEvent event) {
		LookupAttempt attempt = LookupAttempt.current();
		if (attempt == null) {
			return;
		}
		if (event instanceof AuthenticationSuccessEvent) {
			attempt.markAuthenticated();
		}
		else if (event instanceof AbstractAuthenticationFailureEvent) {
			attempt.markFailed();
		}
	}

}
