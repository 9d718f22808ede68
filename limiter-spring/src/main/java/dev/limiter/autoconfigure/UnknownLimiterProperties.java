package dev.limiter.autoconfigure;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Fails start-up on a key under {@code limiter.*} that binds to nothing: a typo such as
 * {@code limiter.budgets.standard.window.minute.limit} would otherwise start silently
 * with no effect. The known keys are read from {@link LimiterProperties} itself, so a
 * property added there is known here at once.
 */
final class UnknownLimiterProperties {

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("limiter");

	private UnknownLimiterProperties() {
	}

	static void check(Environment environment) {
		Iterable<ConfigurationPropertySource> sources = ConfigurationPropertySources.get(environment);
		for (ConfigurationPropertySource source : sources) {
			if (!(source instanceof IterableConfigurationPropertySource iterable) || isSystem(source)) {
				continue;
			}
			iterable.stream().filter(PREFIX::isAncestorOf).forEach(UnknownLimiterProperties::check);
		}
	}

	/**
	 * Environment variables map to names ambiguously ({@code _} is a dot or a dash), and
	 * both they and system properties carry settings of other tools that share the prefix
	 * (the tests' {@code limiter.test.*}); only the application's own configuration is
	 * checked.
	 */
	private static boolean isSystem(ConfigurationPropertySource source) {
		return source.getUnderlyingSource() instanceof PropertySource<?> propertySource
				&& (StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(propertySource.getName())
						|| StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(propertySource.getName()));
	}

	static void check(ConfigurationPropertyName name) {
		Type type = LimiterProperties.class;
		for (int i = 1; i < name.getNumberOfElements(); i++) {
			Class<?> raw = raw(type);
			if (Map.class.isAssignableFrom(raw)) {
				// this element is the map key (a budget or window name); the next one is
				// inside the value
				type = typeArgument(type, 1);
				continue;
			}
			if (Collection.class.isAssignableFrom(raw)) {
				if (!name.isNumericIndex(i)) {
					throw unknown(name, i, List.of());
				}
				type = typeArgument(type, 0);
				continue;
			}
			if (isLeaf(raw)) {
				throw unknown(name, i, List.of());
			}
			String element = name.getElement(i, ConfigurationPropertyName.Form.DASHED);
			Field field = field(raw, element);
			if (field == null) {
				throw unknown(name, i, propertyNames(raw));
			}
			type = field.getGenericType();
		}
	}

	private static InvalidLimiterConfigurationException unknown(ConfigurationPropertyName name, int at,
			List<String> known) {
		String element = name.getElement(at, ConfigurationPropertyName.Form.DASHED);
		String parent = name.chop(at).toString();
		StringBuilder reason = new StringBuilder("is not a limiter property: '").append(element)
			.append("' is unknown under '")
			.append(parent)
			.append("'");
		String near = nearest(element, known);
		if (near != null) {
			reason.append("; did you mean '").append(parent).append('.').append(near).append("'?");
		}
		else if (!known.isEmpty()) {
			reason.append("; known: ").append(known);
		}
		return new InvalidLimiterConfigurationException(name.toString(), reason.toString());
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

	private static Field field(Class<?> type, String dashed) {
		for (Field field : type.getDeclaredFields()) {
			if (!Modifier.isStatic(field.getModifiers()) && dashed(field.getName()).equals(dashed)) {
				return field;
			}
		}
		return null;
	}

	private static List<String> propertyNames(Class<?> type) {
		List<String> names = new ArrayList<>();
		for (Field field : type.getDeclaredFields()) {
			if (!Modifier.isStatic(field.getModifiers())) {
				names.add(dashed(field.getName()));
			}
		}
		return names;
	}

	private static String dashed(String camel) {
		StringBuilder out = new StringBuilder();
		for (char c : camel.toCharArray()) {
			if (Character.isUpperCase(c)) {
				out.append('-').append(Character.toLowerCase(c));
			}
			else {
				out.append(c);
			}
		}
		return out.toString();
	}

	private static boolean isLeaf(Class<?> type) {
		return type.isPrimitive() || type.isEnum() || type.getName().startsWith("java.")
				|| type.getName().startsWith("org.springframework.util.unit.")
				|| !type.getName().startsWith("dev.limiter.");
	}

	private static Class<?> raw(Type type) {
		if (type instanceof Class<?> c) {
			return c;
		}
		if (type instanceof ParameterizedType p) {
			return (Class<?>) p.getRawType();
		}
		return Object.class;
	}

	private static Type typeArgument(Type type, int index) {
		if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
			return p.getActualTypeArguments()[index];
		}
		return Object.class;
	}

}
