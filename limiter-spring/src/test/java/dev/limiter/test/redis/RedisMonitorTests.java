package dev.limiter.test.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reading of {@link RedisMonitor} sees what was sent before its marker, however late,
 * and nothing twice.
 */
@UsesRedisServer
class RedisMonitorTests {

	@Test
	void commandsOnceSentWhenTheCommandArrivesLateShouldWaitForIt() throws Exception {
		try (RedisServerProcess server = RedisServerProcess.start();
				// connected before MONITOR starts, so its handshake is not counted
				RedisTestCommands late = RedisTestCommands.connect(server.port(), Duration.ofSeconds(5));
				RedisMonitor monitor = new RedisMonitor(server.port())) {
			CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
				sleep(700);
				late.command("SET", "sent-late", "1");
			});

			assertThat(monitor.commandsOnceSent(1)).containsExactly("set");
			sent.get();
			assertThat(monitor.commandsUntilQuiet()).as("read once").isEmpty();
		}
	}

	@Test
	void commandsUntilQuietWhenACommandWasAnsweredShouldHoldIt() {
		try (RedisServerProcess server = RedisServerProcess.start();
				RedisTestCommands client = RedisTestCommands.connect(server.port(), Duration.ofSeconds(5));
				RedisMonitor monitor = new RedisMonitor(server.port())) {
			client.command("GET", "answered");

			assertThat(monitor.commandsUntilQuiet()).containsExactly("get");
			assertThat(monitor.commandsUntilQuiet()).isEmpty();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
