package dev.limiter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Fails start-up on a key under {@code limiter.*} that binds to nothing: a typo such as
 * {@code limiter.budgets.standard.window.minute.limit} would otherwise start silently
 * with no effect. Spring Boot's binder finds them: {@code limiter.*} is bound once more
 * with a {@link NoUnboundElementsBindHandler}, so whatever {@link LimiterProperties}
 * declares is known at once. System properties are checked the same way.
 * <p>
 * Environment variables lose their structure ({@code _} is a dot or a dash, a number an
 * index), so the binder's own check cannot judge them: a {@code LIMITER_*} variable is
 * known when Spring Boot's relaxed binding reads it for a name the binder read (the
 * lookup the binder itself made), and unknown otherwise. Both are skipped with
 * {@code limiter.config-check.environment=false}, for a platform that sets
 * {@code LIMITER_*} variables of its own. Names under {@code limiter.test} are left to
 * test tooling (the build's {@code LIMITER_TEST_REDIS_SERVER}) when they come from the
 * environment or system properties.
 */
final class UnknownLimiterProperties {

	private static final ConfigurationPropertyName LIMITER = ConfigurationPropertyName.of("limiter");

	private static final ConfigurationPropertyName TEST_TOOLING = ConfigurationPropertyName.of("limiter.test");

	private static final String CHECK_ENVIRONMENT = "limiter.config-check.environment";

	private UnknownLimiterProperties() {
	}

	static void check(Environment environment) {
		Binder binder = Binder.get(environment);
		boolean checkEnvironment = binder.bind(CHECK_ENVIRONMENT, Boolean.class).orElse(true);
		KnownNames known = new KnownNames();
		try {
			binder.bind("limiter", Bindable.of(LimiterProperties.class), new NoUnboundElementsBindHandler(known,
					(source) -> !isEnvironmentVariables(source) && (checkEnvironment || !isSystemProperties(source))));
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
				for (ConfigurationProperty property : unbound.getUnboundProperties()) {
					if (known.tried.containsKey(property.getName())) {
						// a property the binder read, whose value bound to nothing
						// (key-by:)
						continue;
					}
					if (isSystemProperties(property.getSource())) {
						if (!TEST_TOOLING.isAncestorOf(property.getName())) {
							throw known.unknown(property.getName(), UnknownLimiterPropertyException::systemProperty);
						}
					}
					else {
						throw known.unknown(property.getName(), UnknownLimiterPropertyException::new);
					}
				}
			}
			// Anything else was already reported when LimiterProperties was bound.
		}
		if (checkEnvironment) {
			for (PropertySource<?> source : environment instanceof ConfigurableEnvironment configurable
					? configurable.getPropertySources() : List.<PropertySource<?>>of()) {
				if (source instanceof SystemEnvironmentPropertySource variables && isEnvironmentVariables(variables)) {
					checkVariables(variables, known);
				}
			}
		}
	}

	/**
	 * Fails on the first {@code LIMITER_*} variable that Spring Boot reads for no name
	 * the binder read.
	 */
	private static void checkVariables(SystemEnvironmentPropertySource variables, KnownNames known) {
		for (String variable : variables.getPropertyNames()) {
			// One variable alone, mapped exactly as Spring Boot maps the environment.
			IterableConfigurationPropertySource single = (IterableConfigurationPropertySource) ConfigurationPropertySource
				.from(new SystemEnvironmentPropertySource(variables.getName(),
						Map.of(variable, String.valueOf(variables.getProperty(variable)))));
			ConfigurationPropertyName name = single.stream()
				.filter(LIMITER::isAncestorOf)
				.filter((candidate) -> !TEST_TOOLING.isAncestorOf(candidate))
				.findFirst()
				.orElse(null);
			if (name != null && known.tried.keySet()
				.stream()
				.noneMatch((property) -> single.getConfigurationProperty(property) != null)) {
				throw known.unknown(name, (property, reason) -> UnknownLimiterPropertyException
					.environmentVariable(variable, property, reason));
			}
		}
	}

	/** Environment variables, as Spring Boot recognises them by their source's name. */
	private static boolean isEnvironmentVariables(ConfigurationPropertySource source) {
		return source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource variables
				&& isEnvironmentVariables(variables);
	}

	private static boolean isEnvironmentVariables(PropertySource<?> source) {
		String name = source.getName();
		return name.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
				|| name.endsWith("-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
	}

	private static boolean isSystemProperties(ConfigurationPropertySource source) {
		return source.getUnderlyingSource() instanceof PropertySource<?> underlying
				&& underlying.getName().equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
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
		UnknownLimiterPropertyException unknown(ConfigurationPropertyName name,
				BiFunction<String, String, UnknownLimiterPropertyException> exception) {
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
			return exception.apply(name.toString(), reason.toString());
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
