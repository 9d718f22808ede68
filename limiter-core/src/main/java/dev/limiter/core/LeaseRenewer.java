package dev.limiter.core;

import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Keeps the leases of requests still in flight alive, off the request thread: a kept
 * lease is renewed in the store that issued it every third of its length, each time for a
 * whole length from then, until its request ends ({@link Renewal#close}). A request
 * shorter than a third of its lease costs nothing; a longer one costs one store call (one
 * round trip on Redis) per third of a lease it runs. When the instance dies, renewal
 * stops with it and the lease expires by itself at most one lease length after its last
 * renewal, which is why it has an expiry at all.
 *
 * <p>
 * One daemon thread renews every lease of the instance; a renewal that fails (the store
 * is down) is tried again a third of a lease later, and a lease the store no longer holds
 * (it expired, or the store lost it) is not renewed again: its request goes on without
 * it.
 */
public final class LeaseRenewer implements AutoCloseable {

	private final LongSupplier clock;

	private final Scheduler scheduler;

	private final Runnable stop;

	private volatile boolean stopped;

	private final AtomicLong renewals = new AtomicLong();

	private final AtomicLong lost = new AtomicLong();

	/**
	 * Runs a task every period until cancelled: a scheduled executor in production, a
	 * hand-driven one in tests.
	 */
	@FunctionalInterface
	public interface Scheduler {

		/**
		 * Runs {@code task} every {@code periodMillis}, first after one period; returns
		 * what cancels it.
		 * @throws RejectedExecutionException when the scheduler was stopped
		 */
		Runnable every(long periodMillis, Runnable task);

	}

	/**
	 * @param clock the epoch millisecond, the limiter's clock
	 */
	public LeaseRenewer(LongSupplier clock) {
		this(clock, Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "limiter-lease-renewal");
			thread.setDaemon(true);
			return thread;
		}));
	}

	private LeaseRenewer(LongSupplier clock, ScheduledExecutorService executor) {
		this(clock, (period, task) -> {
			ScheduledFuture<?> future = executor.scheduleAtFixedRate(task, period, period, TimeUnit.MILLISECONDS);
			return () -> future.cancel(false);
		}, executor::shutdownNow);
	}

	/**
	 * @param clock the epoch millisecond
	 * @param scheduler runs each renewal
	 * @param stop stops the scheduler (on {@link #close})
	 */
	public LeaseRenewer(LongSupplier clock, Scheduler scheduler, Runnable stop) {
		this.clock = Objects.requireNonNull(clock, "clock");
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
		this.stop = Objects.requireNonNull(stop, "stop");
	}

	/** How often a lease of {@code leaseMillis} is renewed while its request runs. */
	public static long periodMillis(long leaseMillis) {
		return Math.max(1, leaseMillis / 3);
	}

	/**
	 * Renews {@code lease} (bound to its issuing store) every third of
	 * {@code leaseMillis} until the returned renewal is closed. After {@link #close} no
	 * lease is kept: it expires by itself.
	 */
	public Renewal keep(Lease lease, long leaseMillis) {
		Renewal renewal = new Renewal(lease, leaseMillis);
		long period = periodMillis(leaseMillis);
		if (stopped) {
			renewal.closed = true;
			return renewal;
		}
		try {
			renewal.cancel = scheduler.every(period, () -> renewal.renew(clock.getAsLong()));
		}
		catch (RejectedExecutionException rejected) {
			renewal.closed = true;
		}
		return renewal;
	}

	/**
	 * Keeps a lease of {@code budget} for its concurrency bound's lease length with
	 * {@code renewer} (if any); returns what stops the renewal.
	 */
	public static Runnable keepUntilStopped(LeaseRenewer renewer, Lease lease, Budget budget) {
		if (renewer == null || budget.concurrency().isEmpty()) {
			return () -> {
			};
		}
		return renewer.keep(lease, budget.concurrency().get().leaseMillis())::close;
	}

	/** Renewals sent so far (one store call each). */
	public long renewals() {
		return renewals.get();
	}

	/** Leases the store no longer held when their renewal came. */
	public long lost() {
		return lost.get();
	}

	/**
	 * Stops renewing every lease, as the instance's death would: each expires by itself
	 * at most one lease length after its last renewal.
	 */
	@Override
	public void close() {
		stopped = true;
		stop.run();
	}

	/** One kept lease. */
	public final class Renewal implements AutoCloseable {

		private final Lease lease;

		private final long leaseMillis;

		private volatile Runnable cancel;

		private volatile boolean closed;

		Renewal(Lease lease, long leaseMillis) {
			this.lease = Objects.requireNonNull(lease, "lease");
			if (leaseMillis < 1) {
				throw new IllegalArgumentException("lease length must be at least 1 ms, was " + leaseMillis);
			}
			this.leaseMillis = leaseMillis;
		}

		/**
		 * Renews the lease now for a whole length; false once the renewal is over
		 * (closed, or the store no longer held the lease).
		 */
		public boolean renew(long nowMillis) {
			if (closed || stopped) {
				return false;
			}
			boolean held;
			try {
				renewals.incrementAndGet();
				held = lease.renew(nowMillis + leaseMillis, nowMillis);
			}
			catch (RuntimeException unavailable) {
				// The store did not answer: try again next time; meanwhile the lease
				// lives until its last renewal's expiry.
				return true;
			}
			if (!held) {
				lost.incrementAndGet();
				close();
			}
			return held;
		}

		/**
		 * The request ended: no further renewal (the lease is released by its caller).
		 */
		@Override
		public void close() {
			closed = true;
			Runnable task = cancel;
			if (task != null) {
				task.run();
			}
		}

	}

}
