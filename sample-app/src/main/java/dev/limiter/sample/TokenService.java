package dev.limiter.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;

/**
 * Opaque bearer tokens {@code sp_} + 32 base62 characters. Only their SHA-256 is kept: a leaked table of
 * hashes authenticates nobody.
 */
@Service
public class TokenService {

    public static final Pattern FORMAT = Pattern.compile("sp_[0-9A-Za-z]{32}");

    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private final SecureRandom random = new SecureRandom();
    private final Map<String, TokenHolder> holdersByHash = new ConcurrentHashMap<>();

    public TokenService(SampleProperties properties) {
        String demo = properties.getDemoToken();
        if (demo == null || !FORMAT.matcher(demo).matches()) {
            throw new IllegalArgumentException("Property 'sample.demo-token' must be sp_ followed by 32 base62 "
                    + "characters (0-9, A-Z, a-z)");
        }
        holdersByHash.put(hash(demo), new TokenHolder("demo", false, hash(demo)));
    }

    /** A fresh trial token; the raw value is returned once and never stored. */
    public String mintTrialToken() {
        StringBuilder token = new StringBuilder("sp_");
        for (int i = 0; i < 32; i++) {
            token.append(BASE62[random.nextInt(BASE62.length)]);
        }
        String raw = token.toString();
        String hash = hash(raw);
        holdersByHash.put(hash, new TokenHolder("trial-" + hash.substring(0, 12), true, hash));
        return raw;
    }

    /** Who holds {@code raw}; empty for a malformed or unknown token. */
    public Optional<TokenHolder> authenticate(String raw) {
        if (raw == null || !FORMAT.matcher(raw).matches()) {
            return Optional.empty();
        }
        return Optional.ofNullable(holdersByHash.get(hash(raw)));
    }

    static String hash(String raw) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(raw.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @param name  the principal name; never derived from the raw token in a reversible way
     * @param trial     whether the token was minted by {@code POST /try}
     * @param tokenHash the token's SHA-256 in hex, as the table keeps it: what the limiter keys the token on
     */
    public record TokenHolder(String name, boolean trial, String tokenHash) {
    }
}
