package dev.limiter.core;

import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The verdicts of an admission by a budget of one or two windows with no concurrency
 * bound: per window its {@link AdmissionRule} and the rule's three numbers, each
 * {@link BoundVerdict} made only when first asked for. An admission path that is read
 * only for its answer then allocates this one object instead of a list and a verdict per
 * window; one class per number of windows, so that a budget of one window (the usual)
 * carries no second window's fields. Immutable, like the lists {@link Decision#of} keeps,
 * since the rules are pure; equal to the list of the same verdicts. Not an
 * {@code AbstractList}, whose modification count would make every admission 8 bytes
 * larger.
 */
abstract sealed class AdmittedWindowVerdicts implements List<BoundVerdict>, RandomAccess {

	/**
	 * The verdicts of {@code budget}'s admission; the second rule and numbers are ignored
	 * for a budget of one window.
	 * @throws IllegalArgumentException if the budget has more than two windows
	 */
	static AdmittedWindowVerdicts of(Budget budget, long decidedAtMillis, AdmissionRule firstRule, long firstCounted,
			long firstResetAtMillis, long firstExtra, AdmissionRule secondRule, long secondCounted,
			long secondResetAtMillis, long secondExtra) {
		int n = budget.windows().size();
		if (n > 2) {
			throw new IllegalArgumentException("at most two windows, budget " + budget.name() + " has " + n);
		}
		if (n == 1) {
			return new One(budget.windows().get(0), decidedAtMillis, firstRule, firstCounted, firstResetAtMillis,
					firstExtra);
		}
		return new Two(budget.windows(), decidedAtMillis, firstRule, firstCounted, firstResetAtMillis, firstExtra,
				secondRule, secondCounted, secondResetAtMillis, secondExtra);
	}

	/**
	 * Checks what {@link AdmissionRule#FIXED_WINDOW} is given for an admission: a count
	 * between 0 and the window's limit (above it, the window would have refused).
	 */
	static void checkFixedAdmission(Budget budget, long firstCounted, long secondCounted) {
		List<Window> windows = budget.windows();
		checkCounted(windows.get(0), firstCounted);
		if (windows.size() == 2) {
			checkCounted(windows.get(1), secondCounted);
		}
	}

	private static void checkCounted(Window window, long counted) {
		if (counted < 0 || counted > window.limit()) {
			throw new IllegalArgumentException("an admission counts between 0 and the limit of window " + window.name()
					+ " (" + window.limit() + "), was " + counted);
		}
	}

	/**
	 * Whether a window has nothing left, told by the rules without making the verdicts.
	 */
	abstract boolean anyExhausted();

	/** One window's admission: its list of one verdict. */
	static final class One extends AdmittedWindowVerdicts {

		private final Window window;

		private final long decidedAtMillis;

		private final AdmissionRule rule;

		private final long counted;

		private final long resetAtMillis;

		private final long extra;

		/*
		 * Made on first use. A race may make it twice; both are equal (the rule is pure),
		 * and a record's final fields make either safe to read from any thread.
		 */
		private BoundVerdict verdict;

		private One(Window window, long decidedAtMillis, AdmissionRule rule, long counted, long resetAtMillis,
				long extra) {
			this.window = window;
			this.decidedAtMillis = decidedAtMillis;
			this.rule = Objects.requireNonNull(rule, "rule");
			this.counted = counted;
			this.resetAtMillis = resetAtMillis;
			this.extra = extra;
		}

		@Override
		public BoundVerdict get(int index) {
			Objects.checkIndex(index, 1);
			BoundVerdict v = verdict;
			if (v == null) {
				v = rule.verdict(window, counted, resetAtMillis, extra, decidedAtMillis);
				verdict = v;
			}
			return v;
		}

		@Override
		public int size() {
			return 1;
		}

		@Override
		boolean anyExhausted() {
			return rule.exhausted(window, counted, resetAtMillis, extra, decidedAtMillis);
		}

	}

	/**
	 * Two windows' admission, its fields flat (one object, 88 bytes, where two
	 * {@link One}s and a pair would take 136).
	 */
	static final class Two extends AdmittedWindowVerdicts {

		private final List<Window> windows;

		private final long decidedAtMillis;

		private final AdmissionRule firstRule;

		private final long firstCounted;

		private final long firstResetAtMillis;

		private final long firstExtra;

		private final AdmissionRule secondRule;

		private final long secondCounted;

		private final long secondResetAtMillis;

		private final long secondExtra;

		// Made on first use, as One's.

		private BoundVerdict first;

		private BoundVerdict second;

		private Two(List<Window> windows, long decidedAtMillis, AdmissionRule firstRule, long firstCounted,
				long firstResetAtMillis, long firstExtra, AdmissionRule secondRule, long secondCounted,
				long secondResetAtMillis, long secondExtra) {
			this.windows = windows;
			this.decidedAtMillis = decidedAtMillis;
			this.firstRule = Objects.requireNonNull(firstRule, "firstRule");
			this.firstCounted = firstCounted;
			this.firstResetAtMillis = firstResetAtMillis;
			this.firstExtra = firstExtra;
			this.secondRule = Objects.requireNonNull(secondRule, "secondRule");
			this.secondCounted = secondCounted;
			this.secondResetAtMillis = secondResetAtMillis;
			this.secondExtra = secondExtra;
		}

		@Override
		public BoundVerdict get(int index) {
			Objects.checkIndex(index, 2);
			if (index == 0) {
				BoundVerdict v = first;
				if (v == null) {
					v = firstRule.verdict(windows.get(0), firstCounted, firstResetAtMillis, firstExtra,
							decidedAtMillis);
					first = v;
				}
				return v;
			}
			BoundVerdict v = second;
			if (v == null) {
				v = secondRule.verdict(windows.get(1), secondCounted, secondResetAtMillis, secondExtra,
						decidedAtMillis);
				second = v;
			}
			return v;
		}

		@Override
		public int size() {
			return 2;
		}

		@Override
		boolean anyExhausted() {
			return firstRule.exhausted(windows.get(0), firstCounted, firstResetAtMillis, firstExtra, decidedAtMillis)
					|| secondRule.exhausted(windows.get(1), secondCounted, secondResetAtMillis, secondExtra,
							decidedAtMillis);
		}

	}

	/** An immutable list of the same verdicts, for what is not on an admission's path. */
	private List<BoundVerdict> copy() {
		return (size() == 1) ? List.of(get(0)) : List.of(get(0), get(1));
	}

	@Override
	public boolean isEmpty() {
		return false;
	}

	@Override
	public boolean contains(Object o) {
		return indexOf(o) >= 0;
	}

	@Override
	public int indexOf(Object o) {
		for (int i = 0; i < size(); i++) {
			if (get(i).equals(o)) {
				return i;
			}
		}
		return -1;
	}

	@Override
	public int lastIndexOf(Object o) {
		for (int i = size() - 1; i >= 0; i--) {
			if (get(i).equals(o)) {
				return i;
			}
		}
		return -1;
	}

	@Override
	public Iterator<BoundVerdict> iterator() {
		return new Iterator<>() {

			private int next;

			@Override
			public boolean hasNext() {
				return next < size();
			}

			@Override
			public BoundVerdict next() {
				if (next >= size()) {
					throw new NoSuchElementException();
				}
				return get(next++);
			}

		};
	}

	@Override
	public ListIterator<BoundVerdict> listIterator() {
		return copy().listIterator();
	}

	@Override
	public ListIterator<BoundVerdict> listIterator(int index) {
		return copy().listIterator(index);
	}

	@Override
	public List<BoundVerdict> subList(int fromIndex, int toIndex) {
		return copy().subList(fromIndex, toIndex);
	}

	@Override
	public Object[] toArray() {
		return copy().toArray();
	}

	@Override
	public <T> T[] toArray(T[] a) {
		return copy().toArray(a);
	}

	@Override
	public boolean containsAll(Collection<?> c) {
		return copy().containsAll(c);
	}

	@Override
	public boolean equals(Object o) {
		return o == this || copy().equals(o);
	}

	@Override
	public int hashCode() {
		int hash = 1;
		for (int i = 0; i < size(); i++) {
			hash = 31 * hash + get(i).hashCode();
		}
		return hash;
	}

	@Override
	public String toString() {
		return copy().toString();
	}

	// Every mutator refuses, as an immutable list's does, even when it would change
	// nothing.

	@Override
	public boolean add(BoundVerdict verdict) {
		throw new UnsupportedOperationException();
	}

	@Override
	public void add(int index, BoundVerdict verdict) {
		throw new UnsupportedOperationException();
	}

	@Override
	public BoundVerdict set(int index, BoundVerdict verdict) {
		throw new UnsupportedOperationException();
	}

	@Override
	public BoundVerdict remove(int index) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean addAll(Collection<? extends BoundVerdict> verdicts) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean addAll(int index, Collection<? extends BoundVerdict> verdicts) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean remove(Object o) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean removeAll(Collection<?> c) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean retainAll(Collection<?> c) {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean removeIf(Predicate<? super BoundVerdict> filter) {
		throw new UnsupportedOperationException();
	}

	@Override
	public void replaceAll(UnaryOperator<BoundVerdict> operator) {
		throw new UnsupportedOperationException();
	}

	@Override
	public void sort(Comparator<? super BoundVerdict> c) {
		throw new UnsupportedOperationException();
	}

	@Override
	public void clear() {
		throw new UnsupportedOperationException();
	}

}
