package dev.limiter.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * The examples of {@code docs/configuration.md} start an application: every YAML example
 * under {@code limiter:} binds with no unknown key and resolves, and every
 * {@code .properties} example says exactly what the YAML example before it says.
 */
class ConfigurationExamplesTests {

	private static final Pattern BLOCK = Pattern.compile("^```(yaml|properties)\\n(.*?)^```",
			Pattern.MULTILINE | Pattern.DOTALL);

	@Test
	void examplesWhenWrittenInYamlShouldBindAndResolve() throws IOException {
		List<Example> yaml = examples().stream().filter(Example::isLimiterYaml).toList();
		assertThat(yaml).as("the whole shape, the budget, algorithm, route, unit, keying and Redis examples")
			.hasSizeGreaterThanOrEqualTo(8);
		for (Example example : yaml) {
			assertThatCode(() -> resolve(example.properties())).as(example.text()).doesNotThrowAnyException();
		}
	}

	@Test
	void examplesWhenWrittenAsPropertiesShouldSayWhatTheYamlBeforeThemSays() throws IOException {
		List<Example> examples = examples();
		int twins = 0;
		for (int i = 0; i < examples.size(); i++) {
			Example example = examples.get(i);
			if (example.language().equals("properties")) {
				assertThat(i).as("a .properties example follows a YAML one: %s", example.text()).isPositive();
				Example yaml = examples.get(i - 1);
				assertThat(yaml.language()).as("before %s", example.text()).isEqualTo("yaml");
				assertThat(example.properties()).as(example.text()).isEqualTo(yaml.properties());
				assertThatCode(() -> resolve(example.properties())).as(example.text()).doesNotThrowAnyException();
				twins++;
			}
		}
		assertThat(twins).as("the budget, algorithm, route, unit, keying and Redis examples").isGreaterThanOrEqualTo(7);
	}

	/** Start-up's checks and resolution, on these properties alone. */
	private static void resolve(Map<String, String> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new MapPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of()));
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
					new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, Map.of()));
		environment.getPropertySources().addFirst(new MapPropertySource("example", new LinkedHashMap<>(properties)));
		LimiterProperties bound = Binder.get(environment)
			.bind("limiter", Bindable.of(LimiterProperties.class))
			.orElseGet(LimiterProperties::new);
		LimiterSettingsConfiguration.resolve(bound, environment);
	}

	private static List<Example> examples() throws IOException {
		String docs = Files.readString(Path.of("..", "docs", "configuration.md"), StandardCharsets.UTF_8);
		List<Example> examples = new ArrayList<>();
		Matcher matcher = BLOCK.matcher(docs);
		while (matcher.find()) {
			examples.add(new Example(matcher.group(1), matcher.group(2)));
		}
		return examples;
	}

	private record Example(String language, String text) {

		boolean isLimiterYaml() {
			return language.equals("yaml") && text.startsWith("limiter:");
		}

		/**
		 * The example flattened to property names and values, as Spring Boot loads it.
		 */
		Map<String, String> properties() throws IOException {
			PropertySourceLoader loader = language.equals("yaml") ? new YamlPropertySourceLoader()
					: new PropertiesPropertySourceLoader();
			Map<String, String> properties = new LinkedHashMap<>();
			for (PropertySource<?> source : loader.load("example",
					new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8)))) {
				EnumerablePropertySource<?> enumerable = (EnumerablePropertySource<?>) source;
				for (String name : enumerable.getPropertyNames()) {
					Object value = enumerable.getProperty(name);
					properties.put(name, value == null ? "" : String.valueOf(value));
				}
			}
			return properties;
		}

	}

}
