package dev.limiter.autoconfigure;

import java.util.Locale;
import java.util.function.IntFunction;

import dev.limiter.routes.RouteSource;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The kind of property source each {@code limiter.routes[i]} rule was read from (a YAML
 * file, a {@code .properties} file, environment variables, anything else), so that the
 * inventory says where to find it. The source is the one that holds the rule's
 * {@code pattern}, as the binder reads a list from one source.
 */
final class RouteRuleSources implements IntFunction<RouteSource> {

	private final Environment environment;

	RouteRuleSources(Environment environment) {
		this.environment = environment;
	}

	@Override
	public RouteSource apply(int index) {
		ConfigurationPropertyName pattern = ConfigurationPropertyName.of("limiter.routes[" + index + "].pattern");
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(pattern);
			if (property != null) {
				return kind(source.getUnderlyingSource(), property.getOrigin());
			}
		}
		return RouteSource.RULE;
	}

	private static RouteSource kind(Object underlying, Origin origin) {
		if (underlying instanceof SystemEnvironmentPropertySource || (underlying instanceof PropertySource<?> source
				&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(source.getName()))) {
			return RouteSource.ENVIRONMENT_RULE;
		}
		String file = fileName(origin);
		if (file == null && underlying instanceof PropertySource<?> source) {
			// a file's property source is named after it: "Config resource '...
			// [application.yml]' ..."
			file = source.getName();
		}
		if (file == null) {
			return RouteSource.RULE;
		}
		String name = file.toLowerCase(Locale.ROOT);
		if (name.contains(".yml") || name.contains(".yaml")) {
			return RouteSource.YAML_RULE;
		}
		if (name.contains(".properties")) {
			return RouteSource.PROPERTIES_RULE;
		}
		return RouteSource.RULE;
	}

	private static String fileName(Origin origin) {
		for (Origin at = origin; at != null; at = at.getParent()) {
			if (at instanceof TextResourceOrigin text && text.getResource() != null) {
				String name = text.getResource().getFilename();
				return (name != null) ? name : text.getResource().getDescription();
			}
		}
		return null;
	}

}
