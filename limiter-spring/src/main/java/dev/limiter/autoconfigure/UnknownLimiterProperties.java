package dev.limiter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.env.Environment;

/**
 * Fails start-up on a key under {@code limiter.*} that binds to nothing: a typo such as
 * {@code limiter.budgets.standard.window.minute.limit} would otherwise start silently
 * with no effect. Spring Boot's binder finds them: {@code limiter.*} is bound once more
 * with a {@link NoUnboundElementsBindHandler}, so whatever {@link LimiterProperties}
 * declares is known at once. Environment variables and system properties are not checked
 * ({@link UnboundElementsSourceFilter}): they map to names ambiguously ({@code _} is a
 * dot or a dash) and carry settings of other tools that share the prefix (the tests'
 * {@code limiter.test.*}).
 */
final class UnknownLimiterProperties {

	private UnknownLimiterProperties() {
	}

	static void check(Environment environment) {
		KnownNames known = new KnownNames();
		try {
			Binder.get(environment)
				.bind("limiter", Bindable.of(LimiterProperties.class),
						new NoUnboundElementsBindHandler(known, new UnboundElementsSourceFilter()));
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
				throw known.unknown(unbound.getUnboundProperties().iterator().next().getName());
			}
			// Anything else was already reported when LimiterProperties was bound.
		}
	}

	/**
	 * Every name the binder tried, set or not, with the type it tried to bind there: the
	 * properties each of the limiter's property objects declares, which the suggestion is
	 * chosen from.
	 */
	private static final class KnownNames extends AbstractBindHandler {

		private final Map<ConfigurationPropertyName, Class<?>> tried = new LinkedHashMap<>();

		@Override
		public <T> Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
			tried.putIfAbsent(name, target.getType().resolve(Object.class));
			return super.onStart(name, target, context);
		}

		/**
		 * The error for an unbound name: its first element below the deepest name the
		 * binder tried, and the nearest of that name's known properties.
		 */
		InvalidLimiterConfigurationException unknown(ConfigurationPropertyName name) {
			int at = name.getNumberOfElements() - 1;
			while (at > 1 && !tried.containsKey(name.chop(at))) {
				at--;
			}
			ConfigurationPropertyName parent = name.chop(at);
			List<String> properties = new ArrayList<>();
			// Below a plain value (an enum, a duration) the binder may try a value's own
			// getters: those are no properties to suggest.
			Class<?> type = tried.getOrDefault(parent, Object.class);
			if (type.getName().startsWith("dev.limiter.") && !type.isEnum()) {
				tried.keySet()
					.stream()
					.filter(parent::isParentOf)
					.forEach(candidate -> properties
						.add(candidate.getLastElement(ConfigurationPropertyName.Form.DASHED)));
			}
			String element = name.getElement(at, ConfigurationPropertyName.Form.DASHED);
			StringBuilder reason = new StringBuilder("is not a limiter property: '").append(element)
				.append("' is unknown under '")
				.append(parent)
				.append("'");
			String near = nearest(element, properties);
			if (near != null) {
				reason.append("; did you mean '").append(parent).append('.').append(near).append("'?");
			}
			else if (!properties.isEmpty()) {
				reason.append("; known: ").append(properties);
			}
			return new InvalidLimiterConfigurationException(name.toString(), reason.toString());
		}

	}

	private static String nearest(String element, List<String> known) {
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : known) {
			int distance = distance(element, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return bestDistance <= Math.max(2, element.length() / 3) ? best : null;
	}

	/** Levenshtein distance. */
	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
