package dev.limiter.test.reactive;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import reactor.blockhound.BlockHound;

/**
 * Installs BlockHound once per JVM, before the first test class that uses it: from then
 * on, a blocking call (a sleep, a lock's park, a socket read, a future's {@code get})
 * made on a non-blocking thread (Reactor's {@code parallel} scheduler, a Netty event loop
 * such as Reactor Netty's or Lettuce's) throws
 * {@code reactor.blockhound.BlockingOperationError}. Reactor's and Netty's own
 * integrations (found on the class path) say which threads are non-blocking; nothing is
 * allowed here beyond them, so a test that passes under it proves the code it runs never
 * blocks such a thread.
 *
 * <p>
 * The JVM needs {@code -XX:+AllowRedefinitionToAddDeleteMethods} on JDK 13 and later (the
 * {@code blockhound.argLine} property of the parent POM, set in surefire's
 * {@code argLine}). Use it with {@code @ExtendWith(BlockHoundExtension.class)}.
 */
public final class BlockHoundExtension implements BeforeAllCallback {

	private static final AtomicBoolean INSTALLED = new AtomicBoolean();

	@Override
	public void beforeAll(ExtensionContext context) {
		install();
	}

	/** Installs BlockHound in this JVM unless it is installed already. */
	public static void install() {
		if (INSTALLED.compareAndSet(false, true)) {
			BlockHound.install((builder) -> {
				for (String writersLock : new String[] { "incrementWriters", "decrementWriters", "doExclusive" }) {
					builder.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", writersLock);
				}
			});
		}
	}

}
