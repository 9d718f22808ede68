package dev.limiter.redis;

import java.util.concurrent.CompletableFuture;

import dev.limiter.core.RequestStoreTime;

/**
 * The command a thread last sent for the request it serves ({@link RequestStoreTime}),
 * which the request's next command follows. What an earlier request on the same pooled
 * thread sent is forgotten: requests are not ordered across threads either, and waiting
 * for another request's command would spend this request's timeout on it.
 */
final class SentThisRequest {

	private final ThreadLocal<Sent> last = new ThreadLocal<>();

	void set(CompletableFuture<?> command) {
		last.set(new Sent(RequestStoreTime.current(), command));
	}

	/** This request's last command while it still runs, else {@code null}. */
	CompletableFuture<?> running() {
		Sent sent = last.get();
		if (sent == null) {
			return null;
		}
		if (sent.request() != RequestStoreTime.current() || sent.command().isDone()) {
			last.remove();
			return null;
		}
		return sent.command();
	}

	/** {@link #running()}, forgotten once read: the next command follows it. */
	CompletableFuture<?> take() {
		CompletableFuture<?> running = running();
		last.remove();
		return running;
	}

	/**
	 * @param request {@code null} outside a request
	 */
	private record Sent(RequestStoreTime request, CompletableFuture<?> command) {
	}

}
