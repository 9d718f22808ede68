package dev.limiter.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code dev.limiter} package of every module's main sources (not the CI's
 * throw-away apps) has a {@code package-info.java} saying what it holds and what a user
 * may rely on.
 */
class PackagesDocumentedTests {

	@Test
	void mainPackagesWhenScannedShouldEachHaveAPackageInfo() throws IOException {
		Path root = Path.of("..").toAbsolutePath().normalize();
		try (Stream<Path> files = Files.walk(root)) {
			List<Path> sources = files.filter(Files::isRegularFile)
				.filter(p -> p.toString().endsWith(".java"))
				.filter(p -> root.relativize(p).toString().contains("src/main/java/"))
				.filter(p -> !p.toString().contains("/target/"))
				.toList();
			Set<String> packages = sources.stream()
				.map(PackagesDocumentedTests::packageOf)
				.filter(name -> name.startsWith("dev.limiter"))
				.collect(Collectors.toSet());
			Set<String> documented = sources.stream()
				.filter(p -> p.getFileName().toString().equals("package-info.java"))
				.map(PackagesDocumentedTests::packageOf)
				.collect(Collectors.toSet());
			assertThat(packages).as("packages found").hasSizeGreaterThan(10);
			assertThat(packages).filteredOn(name -> !documented.contains(name))
				.as("packages without a package-info.java")
				.isEmpty();
		}
	}

	private static String packageOf(Path source) {
		String path = source.getParent().toString();
		return path.substring(path.indexOf("src/main/java/") + "src/main/java/".length()).replace('/', '.');
	}

}
