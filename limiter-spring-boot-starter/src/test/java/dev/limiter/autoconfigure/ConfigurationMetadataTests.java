package dev.limiter.autoconfigure;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE knows every documented property: the jar's configuration metadata has each,
 * described.
 */
class ConfigurationMetadataTests {

	private static final Pattern DOCUMENTED = Pattern.compile("^\\| `((?:limiter|\\.\\.\\.limiter)\\.[^`]*)`",
			Pattern.MULTILINE);

	@Test
	void metadataWhenComparedWithTheConfigurationDocsShouldHoldEveryDocumentedProperty() throws Exception {
		JsonNode metadata = metadata();
		Set<String> names = new HashSet<>();
		metadata.get("properties").forEach(p -> names.add(p.get("name").asText()));

		List<String> missing = new ArrayList<>();
		List<String> documented = documented();
		assertThat(documented).hasSizeGreaterThan(30);
		for (String property : documented) {
			if (!names.contains(concrete(property))) {
				missing.add(property + " (as " + concrete(property) + ")");
			}
		}
		assertThat(missing).isEmpty();
	}

	@Test
	void metadataWhenReadShouldDescribeEveryLimiterProperty() throws Exception {
		List<String> undescribed = new ArrayList<>();
		metadata().get("properties").forEach(p -> {
			if (p.get("name").asText().startsWith("limiter.")
					&& (p.get("description") == null || p.get("description").asText().isBlank())) {
				undescribed.add(p.get("name").asText());
			}
		});
		assertThat(undescribed).isEmpty();
	}

	@Test
	void metadataWhenAPropertyIsEnumeratedShouldHaveValueHints() throws Exception {
		Set<String> hinted = new HashSet<>();
		metadata().get("hints").forEach(h -> hinted.add(h.get("name").asText()));
		assertThat(hinted).contains("limiter.store", "limiter.headers", "limiter.mode",
				"limiter.budgets.standard.scope", "limiter.budgets.standard.on-store-failure",
				"limiter.budgets.standard.windows.minute.algorithm");
	}

	/**
	 * {@code <name>}, {@code <window>}, {@code <unit>} and {@code [i]} as the metadata
	 * spells the built-in budget's keys (and the sample's unit).
	 */
	private static String concrete(String documented) {
		return documented.replace("...limiter.", "resilience4j.circuitbreaker.instances.limiter.")
			.replace("<name>", "standard")
			.replace("<window>", "minute")
			.replace("<unit>", "tokens")
			.replace("[i]", "[0]");
	}

	private static List<String> documented() throws Exception {
		String docs = Files.readString(Path.of("..", "docs", "configuration.md"), StandardCharsets.UTF_8);
		List<String> names = new ArrayList<>();
		Matcher matcher = DOCUMENTED.matcher(docs);
		while (matcher.find()) {
			names.add(matcher.group(1));
		}
		return names;
	}

	private static JsonNode metadata() throws Exception {
		try (InputStream in = ConfigurationMetadataTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("the jar's configuration metadata").isNotNull();
			return new ObjectMapper().readTree(in);
		}
	}

}
