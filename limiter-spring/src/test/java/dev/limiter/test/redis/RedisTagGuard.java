package dev.limiter.test.redis;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Refuses a {@code redis-server} to a test that is not tagged
 * {@value UsesRedisServer#TAG} ({@link UsesRedisServer}): the run with
 * {@code -Dgroups=redis} (the embedded Redis 6.2 pass of {@code .ci/run}) would leave
 * such a test out without a word. Registered with the JUnit Platform launcher
 * ({@code META-INF/services}), it follows what is running; {@link RedisServerProcess} and
 * {@link SharedRedis} ask it before handing out a server. Outside a test run (the
 * benchmarks) nothing is running and every server is allowed.
 */
public final class RedisTagGuard implements TestExecutionListener {

	private static final TestTag TAG = TestTag.create(UsesRedisServer.TAG);

	/**
	 * Containers and tests now running: one chain per engine, engines one after another.
	 */
	private static final Set<TestIdentifier> RUNNING = ConcurrentHashMap.newKeySet();

	@Override
	public void testPlanExecutionStarted(TestPlan testPlan) {
		RUNNING.clear();
	}

	@Override
	public void executionStarted(TestIdentifier testIdentifier) {
		RUNNING.add(testIdentifier);
	}

	@Override
	public void executionSkipped(TestIdentifier testIdentifier, String reason) {
		RUNNING.remove(testIdentifier);
	}

	@Override
	public void executionFinished(TestIdentifier testIdentifier, TestExecutionResult testExecutionResult) {
		RUNNING.remove(testIdentifier);
	}

	static void requireTagged(String server) {
		requireTagged(server, RUNNING);
	}

	/**
	 * Throws unless a tagged class or test is running, or no test at all; a class's tag
	 * reaches its tests, so one tagged link of the running chain is enough.
	 */
	static void requireTagged(String server, Collection<TestIdentifier> running) {
		List<TestIdentifier> tests = running.stream().filter((id) -> id.getSource().isPresent()).toList();
		if (tests.isEmpty() || tests.stream().anyMatch((id) -> id.getTags().contains(TAG))) {
			return;
		}
		List<String> classes = tests.stream()
			.flatMap((id) -> id.getSource().stream())
			.filter(ClassSource.class::isInstance)
			.map((source) -> ((ClassSource) source).getClassName())
			.sorted()
			.toList();
		throw new IllegalStateException(server + " asked for by " + String.join(", ", classes)
				+ ", which is not tagged \"" + UsesRedisServer.TAG + "\": annotate the test class with @"
				+ UsesRedisServer.class.getSimpleName()
				+ ", or the run on the embedded Redis (-Dgroups=redis, .ci/run) leaves it out");
	}

}
