package dev.limiter.test.redis;

/**
 * One standalone server and one Cluster per test JVM, started on first use and killed
 * when the JVM exits. Tests that share them use unique keys; tests that inject faults or
 * read server-wide statistics start their own with
 * {@link RedisServerExtension#perClass()}.
 */
public final class SharedRedis {

	private static RedisServerProcess standalone;

	private static RedisClusterProcesses cluster;

	private SharedRedis() {
	}

	public static synchronized RedisServerProcess standalone() {
		RedisTagGuard.requireTagged("the shared redis-server");
		if (standalone == null || !standalone.isRunning()) {
			standalone = RedisServerProcess.start();
			RedisServerProcess started = standalone;
			Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-redis-stop"));
		}
		return standalone;
	}

	public static synchronized RedisClusterProcesses cluster() {
		RedisTagGuard.requireTagged("the shared Redis Cluster");
		if (cluster == null) {
			cluster = RedisClusterProcesses.start();
			RedisClusterProcesses started = cluster;
			Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-redis-cluster-stop"));
		}
		return cluster;
	}

}
