package dev.limiter.core.guard;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process store's credentials proven per address (by their hash): each until its
 * own end, at most {@code perAddress} per address (on overflow the one ending first goes,
 * ties by hash, as {@code guard.lua}'s sorted set drops by rank), and at most
 * {@code maxAddresses} addresses (when full, ended entries are swept, then the address
 * whose latest proof ends first is dropped). Callers hold the address's lock
 * ({@link StoreBackedAuthGuardStore}); time is a parameter.
 */
final class ProvenCredentials {

	static final int MAX_ADDRESSES = 10_000;

	private final int perAddress;

	private final int maxAddresses;

	private final ConcurrentHashMap<String, Map<String, Long>> byAddress = new ConcurrentHashMap<>();

	ProvenCredentials(int perAddress, int maxAddresses) {
		this.perAddress = perAddress;
		this.maxAddresses = maxAddresses;
	}

	boolean proven(String addressKey, String credentialKey, long nowMillis) {
		Map<String, Long> proven = byAddress.get(addressKey);
		if (proven == null || credentialKey == null) {
			return false;
		}
		Long until = proven.get(credentialKey);
		return until != null && until > nowMillis;
	}

	/** How many credentials of the address are proven at {@code nowMillis}. */
	long count(String addressKey, long nowMillis) {
		Map<String, Long> proven = byAddress.get(addressKey);
		return proven == null ? 0 : proven.values().stream().filter(until -> until > nowMillis).count();
	}

	void prove(String addressKey, String credentialKey, long untilMillis, long nowMillis) {
		if (!byAddress.containsKey(addressKey) && byAddress.size() >= maxAddresses) {
			makeRoom(nowMillis);
		}
		Map<String, Long> proven = byAddress.computeIfAbsent(addressKey, key -> new HashMap<>());
		proven.values().removeIf(until -> until <= nowMillis);
		proven.put(credentialKey, untilMillis);
		while (proven.size() > perAddress) {
			String first = null;
			for (Map.Entry<String, Long> entry : proven.entrySet()) {
				if (first == null || entry.getValue() < proven.get(first)
						|| (entry.getValue().equals(proven.get(first)) && entry.getKey().compareTo(first) < 0)) {
					first = entry.getKey();
				}
			}
			proven.remove(first);
		}
	}

	private void makeRoom(long nowMillis) {
		byAddress.values().removeIf(proven -> proven.values().stream().allMatch(until -> until <= nowMillis));
		if (byAddress.size() < maxAddresses) {
			return;
		}
		String oldest = null;
		long oldestLatest = Long.MAX_VALUE;
		for (Map.Entry<String, Map<String, Long>> entry : byAddress.entrySet()) {
			long latest = entry.getValue().values().stream().mapToLong(Long::longValue).max().orElse(0);
			if (latest < oldestLatest) {
				oldest = entry.getKey();
				oldestLatest = latest;
			}
		}
		if (oldest != null) {
			byAddress.remove(oldest);
		}
	}

}
