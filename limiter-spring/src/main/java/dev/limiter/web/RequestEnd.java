package dev.limiter.web;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Runs an action exactly once when a request ends, whichever way it ends: synchronously
 * ({@link #end}), or as an asynchronous request that completes, times out or fails
 * (registered as its {@link AsyncListener}, and again on every restart of the
 * asynchronous cycle).
 */
public final class RequestEnd implements AsyncListener {

	/**
	 * What to do at the end; {@code completed} is false when the request timed out or
	 * failed.
	 */
	@FunctionalInterface
	public interface Action {

		void ended(int status, boolean completed);

	}

	private final Action action;

	private final AtomicBoolean ended = new AtomicBoolean();

	public RequestEnd(Action action) {
		this.action = Objects.requireNonNull(action, "action");
	}

	/** An end that needs to know nothing of how the request ended. */
	public static RequestEnd of(Runnable action) {
		Objects.requireNonNull(action, "action");
		return new RequestEnd((status, completed) -> action.run());
	}

	/** Runs the action now, unless it already ran. */
	public void end(int status, boolean completed) {
		if (ended.compareAndSet(false, true)) {
			action.ended(status, completed);
		}
	}

	/** Whether the action ran. */
	public boolean ended() {
		return ended.get();
	}

	@Override
	public void onComplete(AsyncEvent event) {
		end(event.getSuppliedResponse() instanceof HttpServletResponse http ? http.getStatus() : 200, true);
	}

	@Override
	public void onTimeout(AsyncEvent event) {
		end(0, false);
	}

	@Override
	public void onError(AsyncEvent event) {
		end(0, false);
	}

	@Override
	public void onStartAsync(AsyncEvent event) {
		event.getAsyncContext().addListener(this);
	}

}
