package dev.limiter.benchmarks;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Prints the path of a {@code redis-server} for {@code benchmarks/run}: the one on
 * {@code PATH} when there is one, else the binary shipped inside
 * {@code com.github.codemonstur:embedded-redis}, copied to the path given as the first
 * argument. The same choice as the starter's test support
 * ({@code dev.limiter.test.redis.RedisBinary}).
 */
public final class RedisServerBinary {

	public static void main(String[] args) throws Exception {
		String pathEnv = System.getenv("PATH");
		if (pathEnv != null) {
			for (String dir : pathEnv.split(File.pathSeparator)) {
				Path candidate = Path.of(dir, "redis-server");
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					System.out.println(candidate);
					return;
				}
			}
		}
		String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		boolean arm = arch.contains("aarch64") || arch.contains("arm");
		String resource;
		if (os.contains("linux")) {
			resource = arm ? "/redis-server-6.2.7-linux-arm64"
					: arch.contains("64") ? "/redis-server-6.2.6-v5-linux-amd64" : "/redis-server-6.2.7-linux-386";
		}
		else if (os.contains("mac")) {
			resource = arm ? "/redis-server-6.2.6-v5-darwin-arm64" : "/redis-server-6.2.6-v5-darwin-amd64";
		}
		else {
			throw new IllegalStateException("no embedded redis-server for " + os + "/" + arch + "; put one on PATH");
		}
		Path target = Path.of(args[0]);
		try (InputStream in = redis.embedded.RedisServer.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("embedded-redis ships no " + resource);
			}
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
		}
		if (!target.toFile().setExecutable(true)) {
			throw new IllegalStateException("cannot make " + target + " executable");
		}
		System.out.println(target);
	}

}
