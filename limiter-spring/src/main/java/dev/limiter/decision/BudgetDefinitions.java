package dev.limiter.decision;

import java.security.Principal;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.NotifyAt;
import dev.limiter.core.Window;
import dev.limiter.spring.BudgetDefinition;
import dev.limiter.spring.BudgetRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The budgets the application builds at run time
 * ({@link dev.limiter.spring.BudgetDefinitionSelector} on a servlet application, its
 * reactive counterpart on WebFlux), whichever web stack asks: each definition is
 * validated like a configured budget the first time its identity is met and cached by
 * that identity, so a request whose identity is cached builds nothing. The cache is
 * bounded: past {@code maxCached} identities, an arbitrary one is forgotten (and built
 * again when met again). Counters are kept per identity: the counter key of a defined
 * budget carries the identity, so two definitions never share a counter, whatever their
 * names.
 *
 * @param <R> the request a selector is asked with (the web stack's own)
 */
public final class BudgetDefinitions<R> {

	/** Identities kept by default. */
	public static final int DEFAULT_MAX_CACHED = 10_000;

	private static final char SEPARATOR = '#';

	private final Log logger;

	private final List<Selector<R>> selectors;

	private final int maxCached;

	private final Map<String, Defined> cache = new ConcurrentHashMap<>();

	private final LongAdder evictions = new LongAdder();

	/**
	 * @param selectors the application's selectors, in order
	 * @param maxCached most identities cached at once
	 * @param filter the filter whose log says a definition is invalid
	 */
	public BudgetDefinitions(List<? extends Selector<R>> selectors, int maxCached, Class<?> filter) {
		if (maxCached < 1) {
			throw new IllegalArgumentException("max-cached must be at least 1, was " + maxCached);
		}
		this.selectors = List.copyOf(selectors);
		this.maxCached = maxCached;
		this.logger = LogFactory.getLog(filter);
	}

	/** None defined: every request keeps a configured budget. */
	public static <R> BudgetDefinitions<R> none() {
		return new BudgetDefinitions<>(List.of(), 1, BudgetDefinitions.class);
	}

	/** Whether any selector may define a budget. */
	public boolean any() {
		return !selectors.isEmpty();
	}

	/** Identities cached now. */
	public int size() {
		return cache.size();
	}

	/** Identities forgotten to keep the cache within its bound, since start-up. */
	public long evictions() {
		return evictions.sum();
	}

	public int maxCached() {
		return maxCached;
	}

	/**
	 * The defined budget of this caller, {@code null} when no selector answers or the
	 * definition it names is invalid.
	 */
	BudgetChoice.Chosen choose(BudgetRegistry budgets, R request, Principal principal, String routeBudget) {
		for (Selector<R> selector : selectors) {
			Optional<String> identity = selector.select(request, principal, routeBudget);
			if (identity.isPresent()) {
				Defined defined = cache.get(identity.get());
				if (defined == null) {
					defined = define(selector, identity.get(), budgets, routeBudget);
				}
				return defined.chosen;
			}
		}
		return null;
	}

	private Defined define(Selector<R> selector, String identity, BudgetRegistry budgets, String routeBudget) {
		Defined defined;
		try {
			Budget budget = validate(selector.define(identity), budgets);
			defined = new Defined(new BudgetChoice.Chosen(budget, SEPARATOR + encode(identity)));
		}
		catch (RuntimeException ex) {
			// Remembered as invalid, so the WARN is written once per identity and the
			// selector is not asked again on every request.
			logger.warn(selector.description() + " defined an invalid budget for identity '" + identity + "': "
					+ ex.getMessage() + "; using '" + routeBudget + "'");
			defined = new Defined(null);
		}
		makeRoom();
		Defined raced = cache.putIfAbsent(identity, defined);
		return raced != null ? raced : defined;
	}

	private void makeRoom() {
		Iterator<String> identities = cache.keySet().iterator();
		while (cache.size() >= maxCached && identities.hasNext()) {
			identities.next();
			identities.remove();
			evictions.increment();
		}
	}

	/**
	 * A definition as a core budget, with the rules of a configured one; throws
	 * {@link IllegalArgumentException} naming what is wrong.
	 */
	static Budget validate(BudgetDefinition definition, BudgetRegistry budgets) {
		if (definition == null) {
			throw new IllegalArgumentException("define returned no definition");
		}
		if (budgets.find(definition.name()).isPresent()) {
			throw new IllegalArgumentException("name '" + definition.name()
					+ "' is a configured budget's; a defined budget needs a name of its own");
		}
		Budget.Builder builder = Budget.builder(definition.name()).countRefused(definition.countRefused());
		for (BudgetDefinition.WindowDefinition window : definition.windows()) {
			if ((window.duration() == null) == (window.calendar() == null)) {
				throw new IllegalArgumentException("window '" + window.name() + "' needs a duration or a calendar");
			}
			Window built = (window.calendar() != null)
					? Window.calendar(window.name(), window.limit(), window.calendar())
					: Window.of(window.name(), window.limit(), window.duration());
			if (window.unit() != null && !Window.REQUESTS.equals(window.unit())) {
				built = built.inUnit(window.unit());
			}
			if (built.durationMillis() % 1000 != 0) {
				throw new IllegalArgumentException("window '" + window.name()
						+ "' duration must be a whole number of seconds, was " + window.duration());
			}
			builder.window(withNotifyAt(built, window.notifyAt()));
		}
		if (definition.concurrencyMax() != null) {
			Duration lease = definition.concurrencyLease() != null ? definition.concurrencyLease()
					: ConcurrencyBound.DEFAULT_LEASE;
			builder.concurrency(new ConcurrencyBound(definition.concurrencyMax(), lease));
		}
		return builder.build();
	}

	/**
	 * {@code window} with the thresholds at {@code percents} (none when empty), checked
	 * as {@code notify-at} is: percentages in (0, 100].
	 */
	private static Window withNotifyAt(Window window, List<Integer> percents) {
		if (percents.isEmpty()) {
			return window;
		}
		try {
			return window.withNotifyAt(NotifyAt.of(percents));
		}
		catch (InvalidValueException ex) {
			throw new IllegalArgumentException("window '" + window.name() + "' " + ex.getMessage(), ex);
		}
	}

	/**
	 * The identity in a counter key: no separator and no Cluster hash-tag brace left raw,
	 * so the identity after the last separator is read back unambiguously.
	 */
	static String encode(String identity) {
		StringBuilder out = new StringBuilder(identity.length() + 8);
		for (int i = 0; i < identity.length(); i++) {
			char c = identity.charAt(i);
			switch (c) {
				case '%' -> out.append("%25");
				case '#' -> out.append("%23");
				case '{' -> out.append("%7B");
				case '}' -> out.append("%7D");
				default -> out.append(c);
			}
		}
		return out.toString();
	}

	/**
	 * One selector of the application, asked with its web stack's request: a
	 * {@link dev.limiter.spring.BudgetDefinitionSelector} or its reactive counterpart.
	 *
	 * @param <R> the request it is asked with
	 */
	public interface Selector<R> {

		/** The identity of this caller's definition, empty to keep the route's budget. */
		Optional<String> select(R request, Principal principal, String routeBudget);

		/** The definition of an identity {@link #select} returned. */
		BudgetDefinition define(String identity);

		/** What the log names: the selector's kind and the application's class. */
		String description();

	}

	/** A cached identity: its budget, or {@code null} chosen when it is invalid. */
	private record Defined(BudgetChoice.Chosen chosen) {
	}

}
