package dev.limiter.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * One real {@code redis-server} process on a fixed port, in its own temporary directory,
 * with no persistence. Real faults for failure-mode tests: {@link #stop()},
 * {@link #pause()} / {@link #resume()} (SIGSTOP / SIGCONT), {@link #clientPause(long)},
 * {@link #debugSleep(double)} and {@link #restart()} on the same port. Every process
 * started here is killed when the JVM exits, whatever the tests did.
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final Set<RedisServerProcess> LIVE = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			for (RedisServerProcess server : LIVE) {
				server.kill();
			}
		}, "redis-test-processes-reaper"));
	}

	private final int port;

	private final Path dir;

	private final List<String> extraConfig;

	private final boolean sentinel;

	private volatile Process process;

	private volatile boolean paused;

	private RedisServerProcess(int port, Path dir, List<String> extraConfig, boolean sentinel) {
		this.port = port;
		this.dir = dir;
		this.extraConfig = List.copyOf(extraConfig);
		this.sentinel = sentinel;
	}

	/** Starts a standalone server on a free port. */
	public static RedisServerProcess start() {
		return start(List.of());
	}

	/** Starts a server on a free port with extra {@code redis.conf} lines. */
	public static RedisServerProcess start(List<String> extraConfig) {
		return start(freePort(false), extraConfig);
	}

	/** Starts a server on {@code port} with extra {@code redis.conf} lines. */
	public static RedisServerProcess start(int port, List<String> extraConfig) {
		return launchNew(port, extraConfig, false);
	}

	/**
	 * Starts a Sentinel on a free port that monitors the master at {@code masterPort}
	 * under {@code masterName} (quorum 1), for {@code spring.data.redis.sentinel.*}.
	 */
	public static RedisServerProcess startSentinel(String masterName, int masterPort) {
		return launchNew(freePort(false),
				List.of("sentinel monitor " + masterName + " 127.0.0.1 " + masterPort + " 1",
						"sentinel down-after-milliseconds " + masterName + " 2000",
						"sentinel failover-timeout " + masterName + " 10000"),
				true);
	}

	private static RedisServerProcess launchNew(int port, List<String> extraConfig, boolean sentinel) {
		RedisTagGuard.requireTagged(sentinel ? "a Redis Sentinel" : "a redis-server");
		try {
			Path dir = Files.createTempDirectory("limiter-redis-" + port + "-");
			RedisServerProcess server = new RedisServerProcess(port, dir, extraConfig, sentinel);
			server.launch();
			return server;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/**
	 * A port that is free now; when {@code withClusterBus}, port + 10000 (the cluster
	 * bus) is free too. Chosen at random in a range away from the usual ephemeral ports,
	 * to make clashes between JVMs rare.
	 */
	public static int freePort(boolean withClusterBus) {
		for (int attempt = 0; attempt < 200; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(20_000, 30_000);
			if (isFree(port) && (!withClusterBus || isFree(port + 10_000))) {
				return port;
			}
		}
		throw new IllegalStateException("no free port found for redis");
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port)) {
			socket.setReuseAddress(true);
			return true;
		}
		catch (IOException e) {
			return false;
		}
	}

	private synchronized void launch() throws IOException {
		List<String> config = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "protected-mode no",
				"dir " + dir.toAbsolutePath(), "logfile " + dir.resolve("redis.log").toAbsolutePath(), "daemonize no"));
		if (!sentinel) {
			config.addAll(List.of("save \"\"", "appendonly no"));
		}
		if (!sentinel && RedisBinary.atLeast(7)) {
			// Redis 7 refuses DEBUG (the stall faults) by default; 6.2 does not know the
			// option and would not start.
			// Sentinels need no DEBUG; with the option on a Redis 7 Sentinel the Sentinel
			// wiring test failed 3 runs in 4.
			config.add("enable-debug-command yes");
		}
		config.addAll(extraConfig);
		Path conf = dir.resolve("redis.conf");
		Files.write(conf, config, StandardCharsets.UTF_8);
		List<String> command = new ArrayList<>(List.of(RedisBinary.redisServer().toString(), conf.toString()));
		if (sentinel) {
			command.add("--sentinel");
		}
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(dir.resolve("stdout.log").toFile());
		process = builder.start();
		paused = false;
		LIVE.add(this);
		awaitPong();
	}

	private void awaitPong() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		RuntimeException last = null;
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("redis-server on port " + port + " exited with " + process.exitValue()
						+ "; see " + dir.resolve("redis.log"));
			}
			try (RedisTestCommands client = RedisTestCommands.connect(port, Duration.ofMillis(500))) {
				if ("PONG".equals(client.command("PING"))) {
					return;
				}
			}
			catch (RuntimeException e) {
				last = e;
			}
			sleep(20);
		}
		throw new IllegalStateException("redis-server on port " + port + " did not answer PING", last);
	}

	public int port() {
		return port;
	}

	public String host() {
		return "127.0.0.1";
	}

	/** {@code host:port}, as Cluster and Sentinel configuration lists want it. */
	public String address() {
		return host() + ":" + port;
	}

	public Path directory() {
		return dir;
	}

	public boolean isRunning() {
		Process p = process;
		return p != null && p.isAlive();
	}

	public long pid() {
		return process.pid();
	}

	/** Runs one command on a fresh connection. */
	public Object call(Object... command) {
		return RedisTestCommands.call(port, command);
	}

	/** The {@code INFO} section as key/value pairs. */
	public Map<String, String> info(String section) {
		String text = (String) call("INFO", section);
		Map<String, String> values = new java.util.LinkedHashMap<>();
		for (String line : text.split("\r\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				values.put(line.substring(0, colon), line.substring(colon + 1));
			}
		}
		return Collections.unmodifiableMap(values);
	}

	/** Stops the process (SIGTERM, then SIGKILL after 5 s). Idempotent. */
	public synchronized void stop() {
		Process p = process;
		if (p == null) {
			return;
		}
		if (paused) {
			signal("CONT");
		}
		p.destroy();
		try {
			if (!p.waitFor(5, TimeUnit.SECONDS)) {
				p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		process = null;
		paused = false;
		LIVE.remove(this);
	}

	/**
	 * Kills the process with SIGKILL, as a crash or the OOM killer would: no shutdown, no
	 * goodbye to clients or to the other Cluster nodes. {@link #restart()} brings it
	 * back. Idempotent.
	 */
	public synchronized void crash() {
		Process p = process;
		if (p == null) {
			return;
		}
		p.destroyForcibly();
		try {
			p.waitFor(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		process = null;
		paused = false;
		LIVE.remove(this);
	}

	/**
	 * Starts the server again on the same port and directory (a Cluster node keeps its
	 * nodes.conf).
	 */
	public synchronized void restart() {
		stop();
		try {
			launch();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** Freezes the process with SIGSTOP: connections stay open, nothing answers. */
	public synchronized void pause() {
		signal("STOP");
		paused = true;
	}

	/** Thaws a process frozen by {@link #pause()}. */
	public synchronized void resume() {
		signal("CONT");
		paused = false;
	}

	/**
	 * {@code CLIENT PAUSE millis}: the server holds every client's commands for that
	 * long.
	 */
	public void clientPause(long millis) {
		call("CLIENT", "PAUSE", millis);
	}

	/**
	 * {@code DEBUG SLEEP seconds}, sent without waiting for the reply: the server is busy
	 * for that long. The command is issued on a background thread so the caller can
	 * observe the stall. A {@code DEBUG SLEEP 0} is sent first and waited for: a server
	 * that refuses {@code DEBUG} fails the caller here, loudly, since a test that
	 * believes it stalled the server when it did not would prove nothing.
	 */
	public void debugSleep(double seconds) {
		try {
			call("DEBUG", "SLEEP", 0);
		}
		catch (RedisCommandExecutionException refused) {
			throw new IllegalStateException(
					"redis-server on port " + port + " refused DEBUG SLEEP: " + refused.getMessage(), refused);
		}
		Thread t = new Thread(() -> {
			try (RedisTestCommands client = RedisTestCommands.connect(port,
					Duration.ofMillis((long) (seconds * 1000) + 10_000))) {
				client.command("DEBUG", "SLEEP", seconds);
			}
			catch (RuntimeException ignored) {
				// the server may be stopped while sleeping; a refusal was ruled out above
			}
		}, "redis-debug-sleep-" + port);
		t.setDaemon(true);
		t.start();
		sleep(50);
	}

	private void signal(String signal) {
		Process p = process;
		if (p == null) {
			throw new IllegalStateException("redis-server on port " + port + " is not running");
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
			if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + p.pid() + " failed");
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private void kill() {
		Process p = process;
		if (p != null) {
			p.destroyForcibly();
		}
	}

	@Override
	public void close() {
		stop();
		deleteQuietly(dir);
	}

	private static void deleteQuietly(Path dir) {
		try (var paths = Files.walk(dir)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
		}
		catch (IOException ignored) {
			// a temp dir left behind is harmless
		}
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

}
