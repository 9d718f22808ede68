package dev.limiter.test.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Finds a {@code redis-server} executable: the one on {@code PATH} when there is one, else the binary shipped
 * inside {@code com.github.codemonstur:embedded-redis}, extracted once per JVM into a temporary directory.
 * The system property {@code limiter.test.redis-server} overrides both.
 */
public final class RedisBinary {

    private static volatile Path resolved;

    private RedisBinary() {
    }

    public static Path redisServer() {
        Path path = resolved;
        if (path == null) {
            synchronized (RedisBinary.class) {
                if (resolved == null) {
                    resolved = resolve();
                }
                path = resolved;
            }
        }
        return path;
    }

    private static Path resolve() {
        String override = System.getProperty("limiter.test.redis-server");
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        String pathEnv = System.getenv("PATH");
        if (pathEnv != null) {
            for (String dir : pathEnv.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, "redis-server");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return extractEmbedded();
    }

    private static Path extractEmbedded() {
        String resource = embeddedResourceName();
        try (InputStream in = redis.embedded.RedisServer.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("embedded-redis ships no " + resource + " on this classpath");
            }
            Path dir = Files.createTempDirectory("limiter-redis-bin");
            Path binary = dir.resolve("redis-server");
            Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
            if (!binary.toFile().setExecutable(true)) {
                throw new IllegalStateException("cannot make " + binary + " executable");
            }
            binary.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return binary;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the embedded redis-server", e);
        }
    }

    private static String embeddedResourceName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        if (os.contains("linux")) {
            if (arm) {
                return "/redis-server-6.2.7-linux-arm64";
            }
            return arch.contains("64") ? "/redis-server-6.2.6-v5-linux-amd64" : "/redis-server-6.2.7-linux-386";
        }
        if (os.contains("mac")) {
            return arm ? "/redis-server-6.2.6-v5-darwin-arm64" : "/redis-server-6.2.6-v5-darwin-amd64";
        }
        throw new IllegalStateException("no embedded redis-server for " + os + "/" + arch
                + "; put redis-server on PATH or set -Dlimiter.test.redis-server");
    }
}
