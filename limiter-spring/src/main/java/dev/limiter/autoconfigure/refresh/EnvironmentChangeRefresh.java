package dev.limiter.autoconfigure.refresh;

import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;

/**
 * Spring Cloud's {@link EnvironmentChangeEvent} (sent by {@code /actuator/refresh}, a
 * Config Server or a Kubernetes ConfigMap watcher) that changed a {@code limiter.*} key
 * refreshes the limiter's settings. The only class that names a Spring Cloud type.
 */
class EnvironmentChangeRefresh implements ApplicationListener<EnvironmentChangeEvent> {

	private final LimiterSettingsRefresh refresh;

	EnvironmentChangeRefresh(LimiterSettingsRefresh refresh) {
		this.refresh = refresh;
	}

	@Override
	public void onApplicationEvent(EnvironmentChangeEvent event) {
		if (LimiterSettingsRefresh.touchesLimiter(event.getKeys())) {
			refresh.refresh();
		}
	}

}
