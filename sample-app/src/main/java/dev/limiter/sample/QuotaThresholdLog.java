package dev.limiter.sample;

import dev.limiter.spring.QuotaThresholdEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * One INFO line per {@code notify-at} threshold a caller's quota reached (the
 * {@code completion} budget's month at 80 %): where an application would mail its
 * customer, once per key, month and threshold whichever instance counted it.
 */
@Component
class QuotaThresholdLog {

	private static final Logger logger = LoggerFactory.getLogger(QuotaThresholdLog.class);

	@EventListener
	void reached(QuotaThresholdEvent event) {
		logger.atInfo()
			.addKeyValue("budget", event.getBudget())
			.addKeyValue("window", event.getWindow())
			.addKeyValue("key", event.getKeyHash())
			.addKeyValue("threshold", event.getThresholdPercent())
			.log("Quota threshold: budget={} window={} key={} at={}%", event.getBudget(), event.getWindow(),
					event.getKeyHash(), event.getThresholdPercent());
	}

}
