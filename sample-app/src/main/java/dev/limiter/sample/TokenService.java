package dev.limiter.sample;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import dev.limiter.core.Sha256;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * Opaque bearer tokens {@code sp_} + 32 base62 characters. Only their SHA-256 is kept: a
 * leaked table of hashes authenticates nobody. Trial tokens expire after
 * {@code sample.trial-token-lifetime} and at most {@code sample.max-trial-tokens} are
 * held (the oldest goes first), so {@code POST /try} in a loop cannot grow the heap
 * without bound.
 */
@Service
public class TokenService {

	public static final Pattern FORMAT = Pattern.compile("sp_[0-9A-Za-z]{32}");

	private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

	private final SecureRandom random = new SecureRandom();

	private final Map<String, TokenHolder> holdersByHash = new ConcurrentHashMap<>();

	// insertion order is expiry order: every trial token lives equally long
	private final LinkedHashMap<String, Instant> trialExpiryByHash = new LinkedHashMap<>();

	private final Clock clock;

	private final Duration trialLifetime;

	private final int maxTrialTokens;

	@Autowired
	public TokenService(SampleProperties properties) {
		this(properties, Clock.systemUTC());
	}

	TokenService(SampleProperties properties, Clock clock) {
		String demo = properties.getDemoToken();
		if (demo == null || !FORMAT.matcher(demo).matches()) {
			throw new IllegalArgumentException(
					"Property 'sample.demo-token' must be sp_ followed by 32 base62 " + "characters (0-9, A-Z, a-z)");
		}
		Duration lifetime = properties.getTrialTokenLifetime();
		if (lifetime == null || lifetime.isNegative() || lifetime.isZero()) {
			throw new IllegalArgumentException(
					"Property 'sample.trial-token-lifetime' must be positive, was " + lifetime);
		}
		if (properties.getMaxTrialTokens() < 1) {
			throw new IllegalArgumentException(
					"Property 'sample.max-trial-tokens' must be at least 1, was " + properties.getMaxTrialTokens());
		}
		this.clock = clock;
		this.trialLifetime = lifetime;
		this.maxTrialTokens = properties.getMaxTrialTokens();
		holdersByHash.put(hash(demo), new TokenHolder("demo", false, hash(demo), null));
		List<String> extra = (properties.getExtraDemoTokens() != null) ? properties.getExtraDemoTokens() : List.of();
		for (int i = 0; i < extra.size(); i++) {
			String token = extra.get(i);
			if (token == null || !FORMAT.matcher(token).matches()) {
				throw new IllegalArgumentException("Property 'sample.extra-demo-tokens[" + i
						+ "]' must be sp_ followed by 32 base62 characters (0-9, A-Z, a-z)");
			}
			String hash = hash(token);
			holdersByHash.put(hash, new TokenHolder("demo-" + hash.substring(0, 12), false, hash, null));
		}
	}

	/** A fresh trial token minted by nobody in particular (tests). */
	String mintTrialToken() {
		return mintTrialToken("unknown");
	}

	/**
	 * A fresh trial token; the raw value is returned once and never stored.
	 * @param mintedBy the client address that asked for it: the token is counted as that
	 * address, so minting more tokens buys an address no more requests
	 */
	public String mintTrialToken(String mintedBy) {
		StringBuilder token = new StringBuilder("sp_");
		for (int i = 0; i < 32; i++) {
			token.append(BASE62[random.nextInt(BASE62.length)]);
		}
		String raw = token.toString();
		String hash = hash(raw);
		Instant now = clock.instant();
		synchronized (trialExpiryByHash) {
			evictExpired(now);
			while (trialExpiryByHash.size() >= maxTrialTokens) {
				Iterator<String> oldest = trialExpiryByHash.keySet().iterator();
				holdersByHash.remove(oldest.next());
				oldest.remove();
			}
			trialExpiryByHash.put(hash, now.plus(trialLifetime));
			holdersByHash.put(hash, new TokenHolder("trial-" + hash.substring(0, 12), true, hash, mintedBy));
		}
		return raw;
	}

	/** How many trial tokens are held now, expired ones not yet evicted included. */
	int trialTokenCount() {
		synchronized (trialExpiryByHash) {
			return trialExpiryByHash.size();
		}
	}

	private void evictExpired(Instant now) {
		Iterator<Map.Entry<String, Instant>> entries = trialExpiryByHash.entrySet().iterator();
		while (entries.hasNext()) {
			Map.Entry<String, Instant> entry = entries.next();
			if (entry.getValue().isAfter(now)) {
				return;
			}
			holdersByHash.remove(entry.getKey());
			entries.remove();
		}
	}

	/** Who holds {@code raw}; empty for a malformed or unknown token. */
	public Optional<TokenHolder> authenticate(String raw) {
		if (raw == null || !FORMAT.matcher(raw).matches()) {
			return Optional.empty();
		}
		String hash = hash(raw);
		TokenHolder holder = holdersByHash.get(hash);
		if (holder != null && holder.trial()) {
			synchronized (trialExpiryByHash) {
				Instant expiry = trialExpiryByHash.get(hash);
				if (expiry == null || !expiry.isAfter(clock.instant())) {
					return Optional.empty();
				}
			}
		}
		return Optional.ofNullable(holder);
	}

	static String hash(String raw) {
		return Sha256.hex(raw, 32);
	}

	/**
	 * @param name the principal name; never derived from the raw token in a reversible
	 * way
	 * @param trial whether the token was minted by {@code POST /try}
	 * @param tokenHash the token's SHA-256 in hex, as the table keeps it: what the
	 * limiter keys the token on
	 * @param mintedBy the client address that minted a trial token ({@code null} for the
	 * demo token): what the limiter counts a trial token as
	 */
	public record TokenHolder(String name, boolean trial, String tokenHash, String mintedBy) {
	}

}
