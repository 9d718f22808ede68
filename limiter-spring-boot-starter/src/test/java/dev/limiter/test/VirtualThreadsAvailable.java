package dev.limiter.test;

import org.junit.jupiter.api.Assumptions;

/**
 * Virtual threads exist from JDK 21: tests of them are skipped, saying so, on the JDK 17
 * the project builds with, and run under a newer JVM (surefire's {@code -Djvm=...}).
 */
public final class VirtualThreadsAvailable {

	private VirtualThreadsAvailable() {
	}

	public static boolean available() {
		return Runtime.version().feature() >= 21;
	}

	/** Skips the calling test (or class, from {@code @BeforeAll}) before JDK 21. */
	public static void assume() {
		Assumptions.assumeTrue(available(), () -> "virtual threads need JDK 21 or later; this JVM is "
				+ Runtime.version() + " (run with -Djvm=<a JDK 21+ java> to include these tests)");
	}

	/** Whether the calling thread is virtual; {@code false} before JDK 21. */
	public static boolean currentThreadIsVirtual() {
		if (!available()) {
			return false;
		}
		try {
			return (Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
