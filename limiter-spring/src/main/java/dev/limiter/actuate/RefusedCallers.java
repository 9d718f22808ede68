package dev.limiter.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.limiter.decision.CallerRefusals;

/**
 * The callers this instance refused most in the last minutes, in memory that does not
 * grow with the number of callers: a space-saving heavy-hitters sketch (Metwally et al.)
 * of {@code capacity} entries per slice of one minute, {@code minutes} slices, merged
 * when read. Each count is within {@code N / capacity} of the true count of refusals in
 * the window, {@code N} being every refusal counted in it; any caller refused more than
 * that is listed. Only refusals (429s) are counted; shadow refusals are not. The reactive
 * filter tells it of a refusal as a {@link CallerRefusals}, the servlet filter through
 * {@code dev.limiter.servlet.CallerRefusalsInstrumentation}; it names no servlet type, so
 * the endpoint runs on WebFlux without the Servlet API.
 */
public class RefusedCallers implements CallerRefusals {

	/** Entries kept per slice when none is configured. */
	public static final int DEFAULT_CAPACITY = 128;

	/** Slices of one minute kept when none is configured. */
	public static final int DEFAULT_MINUTES = 5;

	private static final long SLICE_MILLIS = Duration.ofMinutes(1).toMillis();

	private final Clock clock;

	private final int capacity;

	private final Slice[] slices;

	public RefusedCallers(Clock clock) {
		this(clock, DEFAULT_CAPACITY, DEFAULT_MINUTES);
	}

	/**
	 * @param capacity the entries kept per slice of a minute (the error bound is the
	 * window's refusals divided by it)
	 * @param minutes how many minutes are kept
	 */
	public RefusedCallers(Clock clock, int capacity, int minutes) {
		if (capacity < 1 || minutes < 1) {
			throw new IllegalArgumentException("capacity and minutes must be at least 1");
		}
		this.clock = clock;
		this.capacity = capacity;
		this.slices = new Slice[minutes];
		for (int i = 0; i < minutes; i++) {
			this.slices[i] = new Slice();
		}
	}

	/** Counts one refusal of {@code key} in {@code budget}. */
	@Override
	public void refused(String key, String budget, String principal) {
		long now = clock.millis();
		long epoch = now / SLICE_MILLIS;
		Slice slice = slices[(int) (epoch % slices.length)];
		synchronized (slice) {
			if (slice.epoch != epoch) {
				slice.entries.clear();
				slice.epoch = epoch;
				slice.total = 0;
			}
			slice.offer(new Caller(key, budget), principal, now, capacity);
		}
	}

	/** The {@code limit} callers refused most in the window, most refused first. */
	public Top top(int limit) {
		long now = clock.millis();
		long epoch = now / SLICE_MILLIS;
		Map<Caller, Entry> merged = new HashMap<>();
		long total = 0;
		for (Slice slice : slices) {
			synchronized (slice) {
				if (epoch - slice.epoch >= slices.length) {
					continue;
				}
				total += slice.total;
				slice.entries.forEach((caller, entry) -> merged.merge(caller, entry.copy(), Entry::add));
			}
		}
		List<RefusedCaller> callers = new ArrayList<>();
		merged.entrySet()
			.stream()
			.sorted(Comparator.comparingLong((Map.Entry<Caller, Entry> e) -> e.getValue().count).reversed())
			.limit(limit)
			.forEach((e) -> callers.add(new RefusedCaller(e.getKey().key(), e.getValue().principal, e.getKey().budget(),
					e.getValue().count, e.getValue().error, Instant.ofEpochMilli(e.getValue().lastMillis).toString(),
					"keys/" + e.getKey().key() + "?budget=" + e.getKey().budget())));
		return new Top(slices.length, capacity, total, (total + capacity - 1) / capacity, callers);
	}

	/** The entries held now, at most {@code capacity} per slice whatever the callers. */
	public int retainedEntries() {
		int retained = 0;
		for (Slice slice : slices) {
			synchronized (slice) {
				retained += slice.entries.size();
			}
		}
		return retained;
	}

	/**
	 * The most-refused callers of the last {@code windowMinutes} minutes (to within one).
	 *
	 * @param windowMinutes the window
	 * @param capacity the entries kept per minute
	 * @param refusals the refusals counted in the window
	 * @param maxError the most any count may be off by: refusals / capacity, rounded up
	 * @param callers the most refused first
	 */
	public record Top(int windowMinutes, int capacity, long refusals, long maxError, List<RefusedCaller> callers) {
	}

	/**
	 * One caller.
	 *
	 * @param key the key hash, as the key lookup takes it
	 * @param principal the authenticated principal's name, {@code null} when there was
	 * none
	 * @param budget the budget that refused it
	 * @param refusals the refusals counted (at most {@code errorBound} more than it had)
	 * @param errorBound how much of {@code refusals} may be other callers'
	 * @param lastRefusal when it was last refused
	 * @param lookup its live counters, relative to the endpoint: on a shared store
	 * (Redis) they are every instance's
	 */
	public record RefusedCaller(String key, String principal, String budget, long refusals, long errorBound,
			String lastRefusal, String lookup) {
	}

	private record Caller(String key, String budget) {
	}

	private static final class Entry {

		long count;

		long error;

		long lastMillis;

		String principal;

		Entry copy() {
			Entry copy = new Entry();
			copy.count = count;
			copy.error = error;
			copy.lastMillis = lastMillis;
			copy.principal = principal;
			return copy;
		}

		Entry add(Entry other) {
			count += other.count;
			error += other.error;
			if (other.lastMillis >= lastMillis) {
				lastMillis = other.lastMillis;
				principal = (other.principal != null) ? other.principal : principal;
			}
			return this;
		}

	}

	/** One minute's sketch: at most {@code capacity} entries. */
	private static final class Slice {

		final Map<Caller, Entry> entries = new HashMap<>();

		long epoch = Long.MIN_VALUE;

		long total;

		void offer(Caller caller, String principal, long now, int capacity) {
			total++;
			Entry entry = entries.get(caller);
			if (entry == null) {
				if (entries.size() < capacity) {
					entry = new Entry();
				}
				else {
					// space saving: the least counted entry makes room, and the newcomer
					// inherits its count as its possible error
					Map.Entry<Caller, Entry> least = null;
					for (Map.Entry<Caller, Entry> candidate : entries.entrySet()) {
						if (least == null || candidate.getValue().count < least.getValue().count) {
							least = candidate;
						}
					}
					entry = entries.remove(least.getKey());
					entry.error = entry.count;
				}
				entries.put(caller, entry);
				entry.principal = null;
			}
			entry.count++;
			entry.lastMillis = now;
			if (principal != null) {
				entry.principal = principal;
			}
		}

	}

}
