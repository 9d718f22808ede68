package dev.limiter.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behaviour contract lives in the repository's own docs and ADRs; a reference to a
 * design document the repository does not contain leaves a reader with nowhere to go.
 */
class ProjectDocumentsItselfTests {

	// built from parts so this file does not match itself
	private static final List<String> DANGLING = List.of("DESIGN" + " §", "DESIGN" + ".md", "../" + "shared");

	@Test
	void sourcesAndDocsWhenScannedShouldCiteNoDesignDocumentOutsideTheRepository() throws IOException {
		Path root = Path.of("..").toAbsolutePath().normalize();
		assertThat(root.resolve("docs")).isDirectory();
		try (Stream<Path> files = Files.walk(root)) {
			List<String> offenders = files.filter(Files::isRegularFile)
				.filter(p -> !root.relativize(p).toString().startsWith(".git"))
				.filter(p -> !p.toString().contains("/target/"))
				.filter(p -> p.toString().matches(".*\\.(java|md|xml|lua|yml|yaml|properties|json)$")
						|| p.getFileName().toString().equals("run"))
				.flatMap(p -> danglingReferences(root, p))
				.toList();
			assertThat(offenders).isEmpty();
		}
	}

	private static Stream<String> danglingReferences(Path root, Path file) {
		try {
			List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
			return java.util.stream.IntStream.range(0, lines.size())
				.filter(i -> DANGLING.stream().anyMatch(lines.get(i)::contains))
				.mapToObj(i -> root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
		}
		catch (IOException e) {
			return Stream.of(root.relativize(file) + ": unreadable (" + e.getMessage() + ")");
		}
	}

}
