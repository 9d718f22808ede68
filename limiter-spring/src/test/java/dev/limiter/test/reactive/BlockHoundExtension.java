package dev.limiter.test.reactive;

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
 * allowed here beyond them but Lettuce's {@code SharedLock}, Boot's lazy tracer lookup
 * for Prometheus exemplars and springdoc's class-path scans for its document (see
 * {@link #install}), so a test that passes under it proves the code it runs never blocks
 * such a thread.
 *
 * <p>
 * The JVM needs {@code -XX:+AllowRedefinitionToAddDeleteMethods} on JDK 13 and later (the
 * {@code blockhound.argLine} property of the parent POM, set in surefire's
 * {@code argLine}). Use it with {@code @ExtendWith(BlockHoundExtension.class)}.
 */
public final class BlockHoundExtension implements BeforeAllCallback {

	private static boolean installed;

	/**
	 * Why BlockHound could not be installed: every later test class fails with it too,
	 * instead of running without BlockHound (which installs itself once per JVM and
	 * ignores a second attempt).
	 */
	private static Throwable failure;

	@Override
	public void beforeAll(ExtensionContext context) {
		install();
	}

	/**
	 * Installs BlockHound in this JVM unless it is installed already; fails, each time it
	 * is called, if it could not be (the JVM flag missing from surefire's argLine).
	 */
	public static synchronized void install() {
		if (failure != null) {
			throw new IllegalStateException("BlockHound could not be installed in this JVM", failure);
		}
		if (installed) {
			return;
		}
		try {
			// Lettuce parks briefly in SharedLock around each command's hand-off to its
			// channel, on every write path; a BlockingOperationError thrown inside it
			// would leave the lock held and wedge the shared connection
			BlockHound.install((builder) -> {
				for (String writersLock : new String[] { "incrementWriters", "decrementWriters", "doExclusive" }) {
					builder.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", writersLock);
				}
				// Boot 3's Prometheus exemplars look the tracer bean up lazily, on the
				// first meter recorded: a Lettuce event loop recording a command's
				// latency while the context is still being refreshed waits on the bean
				// factory's lock (Spring's start-up, not a request's path)
				for (String lookup : new String[] { "currentSpan", "isCurrentSpanSampled" }) {
					builder
						.allowBlockingCallsInside("org.springframework.boot.actuate.autoconfigure.tracing.prometheus."
								+ "PrometheusExemplarsAutoConfiguration$LazyTracingSpanContext", lookup);
				}
				// springdoc's WebFlux module builds its document on the request's thread
				// and scans the class path there (for @OpenAPIDefinition, security
				// schemes, webhooks): reading class files is springdoc's work, never the
				// limiter's, whose customizer stays watched
				builder.allowBlockingCallsInside(
						"org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider",
						"findCandidateComponents");
				// ...and collects its hidden controllers with a parallel stream, whose
				// caller joins the common pool's workers: springdoc's first document
				// build, on whichever thread asked for it
				builder.allowBlockingCallsInside("org.springdoc.core.service.OpenAPIService",
						"initializeHiddenRestController");
				// Lettuce's Cluster connection provider guards its per-node connection
				// map with a lock held for a map lookup or the creation of a node's
				// connection future: Lettuce's own brief lock, which a first request to a
				// node may find taken by another (never a wait on I/O)
				builder.allowBlockingCallsInside("io.lettuce.core.cluster.PooledClusterConnectionProvider",
						"getWriteConnection");
			});
			installed = true;
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
	}

}
