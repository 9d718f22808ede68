package dev.limiter.test.web;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;

/**
 * A test application's outermost filter: counts each request once it has ended, after
 * every filter inside it saw it end (a synchronous request when they returned; an
 * asynchronous one after the listeners they added, which the container calls in the order
 * they were added, so after the limiter's). A test waits for a request's end as an event,
 * instead of polling for its effects with a bounded sleep.
 */
public final class EndedRequests implements Filter {

	/** Generous: a guard against a request that never ends, never a pace. */
	private static final long TIMEOUT_SECONDS = 60;

	private final Semaphore ended = new Semaphore(0);

	/** The registration that puts this filter outside every other one. */
	public FilterRegistrationBean<EndedRequests> registration() {
		FilterRegistrationBean<EndedRequests> registration = new FilterRegistrationBean<>(this);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (request.isAsyncStarted()) {
				request.getAsyncContext().addListener(new Ended());
			}
			else {
				ended.release();
			}
		}
	}

	/**
	 * Waits until {@code requests} more requests have ended.
	 * @throws AssertionError when they did not within a minute
	 */
	public void await(int requests) throws InterruptedException {
		if (!ended.tryAcquire(requests, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
			throw new AssertionError(requests + " request(s) did not end within " + TIMEOUT_SECONDS + " s");
		}
	}

	/** Forgets the requests that ended and were not waited for. */
	public void clear() {
		ended.drainPermits();
	}

	/** An asynchronous request's end: onComplete follows a timeout and an error too. */
	private final class Ended implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			ended.release();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

	}

}
