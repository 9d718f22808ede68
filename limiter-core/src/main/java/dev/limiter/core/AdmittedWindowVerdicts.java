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
 * bound: per window what it counted and when it resets, each {@link BoundVerdict} made
 * only when first asked for. An admission path that is read only for its answer then
 * allocates this one object instead of a list and a verdict per window. Immutable, like
 * the lists {@link Decision#of} keeps; equal to the list of the same verdicts. Not an
 * {@code AbstractList}, whose modification count would make every admission 8 bytes
 * larger.
 */
final class AdmittedWindowVerdicts implements List<BoundVerdict>, RandomAccess {

	private final Budget budget;

	private final long firstCounted;

	private final long firstResetAtMillis;

	private final long secondCounted;

	private final long secondResetAtMillis;

	/*
	 * Made on first use. A race may make a verdict twice; both are equal, and a record's
	 * final fields make either safe to read from any thread.
	 */

	private BoundVerdict first;

	private BoundVerdict second;

	AdmittedWindowVerdicts(Budget budget, long firstCounted, long firstResetAtMillis, long secondCounted,
			long secondResetAtMillis) {
		List<Window> windows = budget.windows();
		int n = windows.size();
		if (n > 2) {
			throw new IllegalArgumentException("at most two windows, budget " + budget.name() + " has " + n);
		}
		// Admitted: every window counted at most its limit, so none refused.
		checkCounted(windows.get(0), firstCounted);
		if (n == 2) {
			checkCounted(windows.get(1), secondCounted);
		}
		this.budget = budget;
		this.firstCounted = firstCounted;
		this.firstResetAtMillis = firstResetAtMillis;
		this.secondCounted = secondCounted;
		this.secondResetAtMillis = secondResetAtMillis;
	}

	private static void checkCounted(Window window, long counted) {
		if (counted < 0 || counted > window.limit()) {
			throw new IllegalArgumentException("an admission counts between 0 and the limit of window " + window.name()
					+ " (" + window.limit() + "), was " + counted);
		}
	}

	@Override
	public BoundVerdict get(int index) {
		Objects.checkIndex(index, size());
		if (index == 0) {
			BoundVerdict v = first;
			if (v == null) {
				v = BoundVerdict.window(budget.windows().get(0), firstCounted, firstResetAtMillis, false);
				first = v;
			}
			return v;
		}
		BoundVerdict v = second;
		if (v == null) {
			v = BoundVerdict.window(budget.windows().get(1), secondCounted, secondResetAtMillis, false);
			second = v;
		}
		return v;
	}

	@Override
	public int size() {
		return budget.windows().size();
	}

	/** Whether a window has nothing left, told without making the verdicts. */
	boolean anyExhausted() {
		List<Window> windows = budget.windows();
		return firstCounted >= windows.get(0).limit()
				|| (windows.size() == 2 && secondCounted >= windows.get(1).limit());
	}

	/**
	 * The index of {@link Decision#bindingWindow()}: the fewest remaining, among equals
	 * the one that resets last; found without making the other verdict.
	 */
	int bindingIndex() {
		List<Window> windows = budget.windows();
		if (windows.size() == 1) {
			return 0;
		}
		long firstRemaining = Math.max(0, windows.get(0).limit() - firstCounted);
		long secondRemaining = Math.max(0, windows.get(1).limit() - secondCounted);
		return (secondRemaining < firstRemaining
				|| (secondRemaining == firstRemaining && secondResetAtMillis > firstResetAtMillis)) ? 1 : 0;
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
