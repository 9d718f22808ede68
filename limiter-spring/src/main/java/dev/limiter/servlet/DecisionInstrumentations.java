package dev.limiter.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.limiter.core.Decision;
import dev.limiter.spring.RoutePolicy;
import jakarta.servlet.http.HttpServletRequest;

/** Several {@link DecisionInstrumentation}s as one, in order. */
final class DecisionInstrumentations implements DecisionInstrumentation {

	private final List<DecisionInstrumentation> all;

	DecisionInstrumentations(List<DecisionInstrumentation> all) {
		this.all = List.copyOf(all);
	}

	@Override
	public InstrumentedDecision start(DecisionFacts facts) {
		List<InstrumentedDecision> followed = new ArrayList<>(all.size());
		for (DecisionInstrumentation instrumentation : all) {
			InstrumentedDecision one = instrumentation.start(facts);
			if (one != null) {
				followed.add(one);
			}
		}
		return switch (followed.size()) {
			case 0 -> null;
			case 1 -> followed.get(0);
			default -> new Each(followed);
		};
	}

	@Override
	public void exempt(HttpServletRequest request, RoutePolicy route) {
		for (DecisionInstrumentation instrumentation : all) {
			instrumentation.exempt(request, route);
		}
	}

	private record Each(List<InstrumentedDecision> followed) implements InstrumentedDecision {

		@Override
		public Decision storeCall(Supplier<Decision> call) {
			Supplier<Decision> nested = call;
			for (InstrumentedDecision one : followed) {
				Supplier<Decision> inner = nested;
				nested = () -> one.storeCall(inner);
			}
			return nested.get();
		}

		@Override
		public void decided(Decision decision, boolean shadowRefused) {
			followed.forEach((one) -> one.decided(decision, shadowRefused));
		}

		@Override
		public void unavailable(RuntimeException failure) {
			followed.forEach((one) -> one.unavailable(failure));
		}

		@Override
		public AfterResponse afterResponse(String kind, String budget) {
			List<AfterResponse> ends = followed.stream().map((one) -> one.afterResponse(kind, budget)).toList();
			return (failure) -> ends.forEach((end) -> end.done(failure));
		}

	}

}
