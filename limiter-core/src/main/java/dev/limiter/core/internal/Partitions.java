package dev.limiter.core.internal;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link InMemoryRateLimitStore}'s two partitions and their shared bound of
 * {@code maxKeys} keys. Address keys (a caller without a credential, {@code a:}, and the
 * authentication guard's per-address pending and failure counters) are one; everything
 * else (credential and principal counters, guard blocks) the other. An address key only
 * ever evicts another address key, while any other key evicts an address key first.
 *
 * <p>
 * A key's segment within its partition comes from SipHash-2-4 keyed with a per-process
 * random seed, so a caller who can choose keys (addresses in a large IPv6 prefix, say)
 * cannot aim them at one segment to evict a chosen key.
 */
final class Partitions {

	private static final int MAX_SEGMENTS = 64;

	/**
	 * Budgets of the authentication guard whose keys are per address but are not a block.
	 */
	private static final Set<String> GUARD_ADDRESS_BUDGETS = Set.of("auth-guard-pending", "auth-guard-failures");

	private final Segment[] segments;

	private final Segment[] addressSegments;

	/** Keys held across both partitions. */
	private final AtomicInteger held = new AtomicInteger();

	/**
	 * Where a credential key that finds the store full looks first for an address key to
	 * evict.
	 */
	private final AtomicInteger addressCursor = new AtomicInteger();

	private final int segmentMask;

	private final int maxKeys;

	Partitions(int maxKeys) {
		// The seed comes from SecureRandom, which may read the OS's entropy: here, when
		// the store is made, not on the thread of its first request (an event loop).
		SipHash.seed();
		this.maxKeys = maxKeys;
		int count = Integer.highestOneBit(Math.min(MAX_SEGMENTS, maxKeys));
		this.segments = new Segment[count];
		this.addressSegments = new Segment[count];
		for (int i = 0; i < count; i++) {
			segments[i] = new Segment(maxKeys / count, held);
			addressSegments[i] = new Segment(maxKeys / count, held);
		}
		this.segmentMask = count - 1;
		// the seed is read from the platform's entropy source (a file read) when the
		// store
		// is made, never on the first request: on a reactive application that request
		// runs on a thread that must not block
		SipHash.seed();
	}

	/**
	 * A key any caller can mint more of by changing its address, rather than one
	 * authentication established.
	 */
	static boolean isAddressKey(String budget, String key) {
		return key.startsWith("a:") || GUARD_ADDRESS_BUDGETS.contains(budget);
	}

	Segment segmentFor(String budget, String key) {
		Segment[] partition = isAddressKey(budget, key) ? addressSegments : segments;
		return partition[(int) (SipHash.keyed(budget, key) >>> 40) & segmentMask];
	}

	boolean full() {
		return held.get() > maxKeys;
	}

	/**
	 * Called with {@code segment}'s lock held, once a new key made the store pass
	 * {@code maxKeys}. An address key evicts from its own segment (itself last, after its
	 * decision is made); any other key evicts one address key, taking an address
	 * segment's lock (address keys never take another segment's lock, so the order cannot
	 * deadlock), and only when there is none from its own segment.
	 */
	void makeRoom(Segment segment, boolean address) {
		if (address) {
			while (full() && segment.evictEldest()) {
				// evicted one
			}
			return;
		}
		for (int i = 0; i < addressSegments.length && full(); i++) {
			Segment victim = addressSegments[addressCursor.getAndIncrement() & segmentMask];
			synchronized (victim) {
				victim.evictEldest();
			}
		}
		while (full() && segment.size() > 1 && segment.evictEldest()) {
			// evicted one
		}
	}

	/** Keys held right now, across both partitions. */
	int size() {
		return size(segments) + size(addressSegments);
	}

	/** Address keys held right now. */
	int addressKeys() {
		return size(addressSegments);
	}

	private static int size(Segment[] partition) {
		int size = 0;
		for (Segment segment : partition) {
			synchronized (segment) {
				size += segment.size();
			}
		}
		return size;
	}

}
