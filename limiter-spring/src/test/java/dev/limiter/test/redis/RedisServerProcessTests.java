package dev.limiter.test.redis;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The faults the failure-mode tests rely on are real: a stopped, frozen or paused server
 * does not answer.
 */
@UsesRedisServer
class RedisServerProcessTests {

	@Test
	void serverWhenFrozenThawedStoppedAndRestartedShouldKeepItsPort() {
		try (RedisServerProcess server = RedisServerProcess.start()) {
			int port = server.port();
			server.call("SET", "survives-freeze", "yes");

			server.pause();
			assertThatThrownBy(() -> pingWithin(port, 300)).isInstanceOf(UncheckedIOException.class);
			server.resume();
			assertThat(pingWithin(port, 2_000)).isEqualTo("PONG");
			assertThat(server.call("GET", "survives-freeze")).isEqualTo("yes");

			server.stop();
			assertThat(server.isRunning()).isFalse();
			assertThatThrownBy(() -> pingWithin(port, 300)).isInstanceOf(UncheckedIOException.class);

			server.restart();
			assertThat(server.port()).isEqualTo(port);
			assertThat(pingWithin(port, 2_000)).isEqualTo("PONG");
			assertThat(server.call("GET", "survives-freeze")).as("no persistence: a restart starts empty").isNull();
		}
	}

	@Test
	void commandsWhenClientPauseOrDebugSleepRunsShouldBeHeld() {
		try (RedisServerProcess server = RedisServerProcess.start()) {
			server.clientPause(3_000);
			assertThatThrownBy(() -> pingWithin(server.port(), 300)).isInstanceOf(UncheckedIOException.class);
			server.call("CLIENT", "UNPAUSE");
			assertThat(pingWithin(server.port(), 2_000)).isEqualTo("PONG");

			server.debugSleep(2);
			assertThatThrownBy(() -> pingWithin(server.port(), 300)).isInstanceOf(UncheckedIOException.class);
		}
	}

	@Test
	void debugSleepWhenServerRefusesDebugShouldFailLoudly() {
		try (RedisServerProcess server = RedisServerProcess.start(List.of("rename-command DEBUG \"\""))) {
			assertThatThrownBy(() -> server.debugSleep(1)).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("refused DEBUG SLEEP");
		}
	}

	@Test
	void versionWhenRedis7OnPathShouldBeReadFromTheBinary() {
		assertThat(RedisBinary.parseVersion("Redis server v=7.0.15 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64",
				Path.of("redis-server")))
			.containsExactly(7, 0);
	}

	@Test
	void resolveWhenEmbeddedForcedShouldPickTheEmbeddedSixTwoBinary() {
		Path embedded = RedisBinary.resolve(RedisBinary.EMBEDDED);
		assertThat(embedded.toString()).doesNotStartWith("/usr");
		assertThat(RedisBinary.readVersion(embedded)).containsExactly(6, 2);
	}

	@Test
	void clusterNodeWhenRestartedShouldRejoinWithItsSlots() {
		try (RedisClusterProcesses cluster = RedisClusterProcesses.start()) {
			RedisServerProcess node = cluster.nodes().get(1);
			node.stop();
			node.restart();

			cluster.awaitState("ok", 30);
			assertThat((String) node.call("CLUSTER", "INFO")).contains("cluster_state:ok");
		}
	}

	private static Object pingWithin(int port, int timeoutMillis) {
		try (RedisTestCommands client = RedisTestCommands.connect(port, Duration.ofMillis(timeoutMillis))) {
			return client.command("PING");
		}
	}

}
