package dev.limiter.autoconfigure;

import java.time.Clock;

import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.quota.QuotaThresholdEvents;
import dev.limiter.resilience.StoreStack;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The limiter's model: the resolved budgets, the clock it decides by, and the in-process
 * store when {@code limiter.store=memory} (the default; its stack built by
 * {@link StoreStack}). Another store (such as Redis) is contributed by its own
 * auto-configuration as a {@link RateLimitStore} bean, which makes the in-process one
 * back off.
 */
@AutoConfiguration
@ConditionalOnLimiterEnabled
@Import(LimiterSettingsConfiguration.class)
public class LimiterAutoConfiguration {

	/**
	 * Name of the limiter's clock bean; define a {@link Clock} bean with this name to
	 * replace it.
	 */
	public static final String CLOCK_BEAN_NAME = "limiterClock";

	/** Name of the store bean. */
	public static final String STORE_BEAN_NAME = "limiterStore";

	private static final Log logger = LogFactory.getLog(LimiterAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	public BudgetRegistry limiterBudgetRegistry(LimiterSettings settings) {
		return settings.budgets();
	}

	@Bean
	@ConditionalOnMissingBean
	public BudgetOptions limiterBudgetOptions(LimiterSettings settings) {
		return settings.options();
	}

	/**
	 * Not a default candidate, so an application's own {@code Clock} bean is neither
	 * replaced by this one nor made ambiguous; the limiter asks for it by name.
	 */
	@Bean(name = CLOCK_BEAN_NAME, defaultCandidate = false)
	@ConditionalOnMissingBean(name = CLOCK_BEAN_NAME)
	public Clock limiterClock() {
		return Clock.systemUTC();
	}

	@Bean(name = STORE_BEAN_NAME)
	@ConditionalOnMissingBean(RateLimitStore.class)
	@ConditionalOnProperty(prefix = "limiter", name = "store", havingValue = "memory", matchIfMissing = true)
	public RateLimitStore limiterStore(LimiterSettings settings) {
		int maxKeys = settings.memoryMaxKeys();
		return StoreStack.local(RateLimitStores.inMemory(maxKeys), maxKeys);
	}

	/**
	 * Publishes a {@code QuotaThresholdEvent} for each {@code notify-at} threshold a
	 * decision or a settlement reached: an observer of every decision and settlement.
	 */
	@Bean
	@ConditionalOnMissingBean
	public QuotaThresholdEvents limiterQuotaThresholdEvents(ApplicationEventPublisher publisher) {
		return new QuotaThresholdEvents(publisher);
	}

	@Bean
	@ConditionalOnMissingBean
	public LimiterStartupReport limiterStartupReport(BudgetRegistry budgets, ObjectProvider<RateLimitStore> stores) {
		return new LimiterStartupReport(budgets, stores);
	}

	/** Says once, at start-up, which store counts and which budgets apply. */
	public static class LimiterStartupReport implements SmartInitializingSingleton {

		private final BudgetRegistry budgets;

		private final ObjectProvider<RateLimitStore> stores;

		LimiterStartupReport(BudgetRegistry budgets, ObjectProvider<RateLimitStore> stores) {
			this.budgets = budgets;
			this.stores = stores;
		}

		@Override
		public void afterSingletonsInstantiated() {
			RateLimitStore store = stores.getIfAvailable();
			String storeName = store == null ? "none" : store.name();
			logger.info("Limiter counting in store '" + storeName + "'; budgets "
					+ budgets.all().stream().map(b -> b.name()).toList() + ", default '"
					+ budgets.defaultBudget().name() + "', anonymous '" + budgets.anonymousBudget().name() + "'");
		}

	}

}
