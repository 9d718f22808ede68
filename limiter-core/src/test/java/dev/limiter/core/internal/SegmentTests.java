package dev.limiter.core.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A segment's eviction clock keeps what was used over what was not, and its sweep is not
 * stopped by a key in use.
 */
class SegmentTests {

	private final Map<String, StoreEntry> home = new ConcurrentHashMap<>();

	private final AtomicInteger held = new AtomicInteger();

	@Test
	void evictWhenAnOlderKeyWasUsedSinceTheHandPassedShouldEvictTheUnusedOne() {
		Segment segment = new Segment(3, held);
		add(segment, "a");
		add(segment, "b");
		add(segment, "c");
		add(segment, "d");
		assertThat(home).as("every key was new: the oldest goes").doesNotContainKey("a");
		home.get("b").referenced = true;

		add(segment, "e");

		assertThat(home).containsOnlyKeys("b", "d", "e");
		assertThat(held).hasValue(3);
	}

	@Test
	void evictWhenEveryKeyWasUsedShouldEvictTheOldest() {
		Segment segment = new Segment(2, held);
		add(segment, "a");
		add(segment, "b");

		add(segment, "c");

		assertThat(home).containsOnlyKeys("b", "c");
	}

	@Test
	void evictWhenEntryIsLiveShouldMarkItRemoved() {
		Segment segment = new Segment(1, held);
		StoreEntry first = add(segment, "a");

		add(segment, "b");

		assertThat(first.removed).isTrue();
		assertThat(segment.size()).isEqualTo(1);
	}

	@Test
	void sweepWhenAKeyInUseIsEldestShouldStillDropTheIdleKeysBehindIt() {
		Segment segment = new Segment(100, held);
		StoreEntry inUse = add(segment, "in-use");
		inUse.restart(0, 10_000);
		for (int i = 0; i < 15; i++) {
			add(segment, "idle-" + i);
		}

		segment.sweep(1_000);

		assertThat(home).containsKey("in-use").hasSize(16 - 7);
		assertThat(held).hasValue(9);
	}

	private StoreEntry add(Segment segment, String key) {
		StoreEntry entry = new StoreEntry(home, key, segment, 1);
		home.put(key, entry);
		segment.add(entry);
		return entry;
	}

}
