package dev.limiter.test.redis;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * A server is refused to a running test class without the tag, so that no Redis-backed
 * test drops out of the run with {@code -Dgroups=redis}.
 */
class RedisTagGuardTests {

	private static final TestIdentifier ENGINE = TestIdentifier
		.from(new EngineDescriptor(UniqueId.forEngine("junit-jupiter"), "JUnit Jupiter"));

	@Test
	void requireTaggedWhenAnUntaggedClassRunsShouldThrowNamingItAndTheAnnotation() {
		List<TestIdentifier> running = List.of(ENGINE, running("dev.limiter.FooTests", null, Set.of()),
				running("dev.limiter.FooTests", "bar", Set.of()));

		assertThatIllegalStateException().isThrownBy(() -> RedisTagGuard.requireTagged("a redis-server", running))
			.withMessageStartingWith("a redis-server asked for by dev.limiter.FooTests, which is not tagged \"redis\"")
			.withMessageContaining("@UsesRedisServer");
	}

	@Test
	void requireTaggedWhenATaggedClassRunsShouldAllow() {
		List<TestIdentifier> running = List.of(ENGINE, running("dev.limiter.FooTests", null, Set.of("redis")),
				running("dev.limiter.FooTests", "bar", Set.of()));

		assertThatNoException().isThrownBy(() -> RedisTagGuard.requireTagged("a redis-server", running));
	}

	@Test
	void requireTaggedWhenOnlyAnotherTagIsThereShouldThrow() {
		List<TestIdentifier> running = List.of(ENGINE, running("dev.limiter.FooTests", null, Set.of("slow")));

		assertThatIllegalStateException().isThrownBy(() -> RedisTagGuard.requireTagged("a redis-server", running));
	}

	@Test
	void requireTaggedWhenNoTestRunsShouldAllow() {
		assertThatNoException().isThrownBy(() -> RedisTagGuard.requireTagged("a redis-server", List.of()));
		assertThatNoException().isThrownBy(() -> RedisTagGuard.requireTagged("a redis-server", List.of(ENGINE)));
	}

	private static TestIdentifier running(String className, String methodName, Set<String> tags) {
		boolean method = methodName != null;
		UniqueId classId = UniqueId.forEngine("junit-jupiter").append("class", className);
		UniqueId id = method ? classId.append("method", methodName) : classId;
		TestDescriptor descriptor = new AbstractTestDescriptor(id, method ? methodName : className,
				method ? MethodSource.from(className, methodName) : ClassSource.from(className)) {

			@Override
			public Type getType() {
				return method ? Type.TEST : Type.CONTAINER;
			}

			@Override
			public Set<TestTag> getTags() {
				return tags.stream().map(TestTag::create).collect(Collectors.toSet());
			}

		};
		return TestIdentifier.from(descriptor);
	}

}
