package dev.limiter.benchmarks;

/**
 * The waits of the Redis load runs: none of them may be cut short, so an interrupt ends
 * the run.
 */
final class Pauses {

	private Pauses() {
	}

	static void sleep(long millis) {
		interruptEndsTheRun(() -> Thread.sleep(millis));
	}

	static void join(Thread[] threads) {
		for (Thread t : threads) {
			interruptEndsTheRun(t::join);
		}
	}

	private static void interruptEndsTheRun(Wait wait) {
		try {
			wait.run();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private interface Wait {

		void run() throws InterruptedException;

	}

	/**
	 * Waits for the next wall-clock minute when fewer than {@code millis} are left in
	 * this one, so that a run on a 600-a-minute key never straddles a window's end.
	 */
	static void awaitRoomInMinute(long millis) {
		long now = System.currentTimeMillis();
		long left = 60_000 - Math.floorMod(now, 60_000L);
		if (left < millis) {
			sleep(left + 50);
		}
	}

}
