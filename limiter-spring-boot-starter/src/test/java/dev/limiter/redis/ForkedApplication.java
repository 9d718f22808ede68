package dev.limiter.redis;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.limiter.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test application in a JVM of its own, on this test's class path less the entries a
 * test leaves out (a client library), on a free port; stopped on {@link #close()}. Its
 * output goes to a file, read by {@link #output()}.
 */
final class ForkedApplication implements AutoCloseable {

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final Process process;

	private final Path output;

	private final int port;

	private final String classPath;

	private ForkedApplication(Process process, Path output, int port, String classPath) {
		this.process = process;
		this.output = output;
		this.port = port;
		this.classPath = classPath;
	}

	/**
	 * Starts the application and waits until {@code /ping} answers.
	 * @param leftOut class-path entries to leave out
	 * @param properties Spring properties, {@code name=value}
	 */
	static ForkedApplication start(Class<?> application, Predicate<String> leftOut, String... properties)
			throws Exception {
		String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		String classPath = Arrays.stream(testClassPath.split(File.pathSeparator))
			.filter(leftOut.negate())
			.collect(Collectors.joining(File.pathSeparator));
		int port = RedisServerProcess.freePort(false);
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
						"-XX:TieredStopAtLevel=1", "-cp", classPath, application.getName(), "--server.port=" + port));
		for (String property : properties) {
			command.add("--" + property);
		}
		Path output = Files.createTempFile("forked-app-", ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
		ForkedApplication app = new ForkedApplication(process, output, port, classPath);
		app.awaitUp();
		return app;
	}

	String classPath() {
		return classPath;
	}

	String output() throws IOException {
		return Files.readString(output, StandardCharsets.UTF_8);
	}

	HttpResponse<String> get(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.GET()
			.build();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> post(String path) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build();
		return http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private void awaitUp() throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (true) {
			assertThat(process.isAlive()).as("the forked application is running; its output:%n%s", output()).isTrue();
			try {
				get("/actuator/health");
				return;
			}
			catch (IOException notYet) {
				assertThat(System.nanoTime())
					.as("the forked application answers within 120 s; its output:%n%s", output())
					.isLessThan(deadline);
				Thread.sleep(200);
			}
		}
	}

	@Override
	public void close() throws Exception {
		process.destroy();
		if (!process.waitFor(10, TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		Files.deleteIfExists(output);
	}

}
