package dev.limiter.test.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a {@code redis-server} executable: the one on {@code PATH} when there is one,
 * else the binary shipped inside {@code com.github.codemonstur:embedded-redis}, extracted
 * once per JVM into a temporary directory. The system property
 * {@code limiter.test.redis-server} (or the environment variable
 * {@code LIMITER_TEST_REDIS_SERVER}, which reaches forked test JVMs without any plugin
 * configuration) overrides both: a path to a binary, or {@code embedded} to use the
 * embedded binary even when one is on {@code PATH}.
 */
public final class RedisBinary {

	/** The override value that forces the embedded binary. */
	public static final String EMBEDDED = "embedded";

	private static final Pattern VERSION = Pattern.compile("v=(\\d+)\\.(\\d+)");

	private static volatile Path resolved;

	private static volatile int[] version;

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

	/**
	 * The major and minor version of {@link #redisServer()}, from
	 * {@code redis-server --version}: start options differ between the lines the
	 * infrastructure may pick (Redis 7 refuses {@code DEBUG} unless started with
	 * {@code enable-debug-command}, and Redis 6.2 rejects that option as unknown).
	 */
	public static int[] version() {
		int[] v = version;
		if (v == null) {
			synchronized (RedisBinary.class) {
				if (version == null) {
					version = readVersion(redisServer());
				}
				v = version;
			}
		}
		return v.clone();
	}

	/** {@code true} when the server's major version is at least {@code major}. */
	public static boolean atLeast(int major) {
		return version()[0] >= major;
	}

	static int[] readVersion(Path binary) {
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(binary + " --version did not finish");
			}
			return parseVersion(output, binary);
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot run " + binary + " --version", e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	static int[] parseVersion(String versionOutput, Path binary) {
		Matcher matcher = VERSION.matcher(versionOutput);
		if (!matcher.find()) {
			throw new IllegalStateException("cannot read the version of " + binary + " from: " + versionOutput.trim());
		}
		return new int[] { Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)) };
	}

	/**
	 * The {@code redis-server} {@link #redisServer()} would pick, with the embedded
	 * binary copied to {@code embeddedTarget} and kept there: for a server that outlives
	 * this JVM ({@code benchmarks/run}).
	 */
	public static Path redisServer(Path embeddedTarget) {
		return resolve(override(), () -> copyEmbedded(embeddedTarget));
	}

	private static Path resolve() {
		return resolve(override());
	}

	private static String override() {
		String override = System.getProperty("limiter.test.redis-server");
		if (override == null || override.isBlank()) {
			override = System.getenv("LIMITER_TEST_REDIS_SERVER");
		}
		return override;
	}

	static Path resolve(String override) {
		return resolve(override, RedisBinary::extractEmbedded);
	}

	private static Path resolve(String override, Supplier<Path> embedded) {
		if (override != null && !override.isBlank()) {
			return EMBEDDED.equalsIgnoreCase(override.trim()) ? embedded.get() : Path.of(override.trim());
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
		return embedded.get();
	}

	private static Path extractEmbedded() {
		try {
			Path dir = Files.createTempDirectory("limiter-redis-bin");
			Path binary = copyEmbedded(dir.resolve("redis-server"));
			binary.toFile().deleteOnExit();
			dir.toFile().deleteOnExit();
			return binary;
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot extract the embedded redis-server", e);
		}
	}

	private static Path copyEmbedded(Path binary) {
		String resource = embeddedResourceName();
		try (InputStream in = redis.embedded.RedisServer.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("embedded-redis ships no " + resource + " on this classpath");
			}
			Files.copy(in, binary, StandardCopyOption.REPLACE_EXISTING);
			if (!binary.toFile().setExecutable(true)) {
				throw new IllegalStateException("cannot make " + binary + " executable");
			}
			return binary;
		}
		catch (IOException e) {
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
