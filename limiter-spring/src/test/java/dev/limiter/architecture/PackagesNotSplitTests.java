package dev.limiter.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No package is split across the library's modules ({@code limiter-core},
 * {@code limiter-spring} and both starters): each Boot line's own classes live under its
 * own packages ({@code dev.limiter.boot3.*}, {@code dev.limiter.boot4.*}), so a package
 * is one module's, its package-private parts are its own, and a module path could hold
 * them all.
 */
class PackagesNotSplitTests {

	@Test
	void packagesWhenCollectedPerModuleShouldEachBelongToOneModule() throws IOException {
		Map<String, Set<String>> modulesOfPackage = new TreeMap<>();
		List<Path> modules;
		try (Stream<Path> children = Files.list(Path.of("..").toAbsolutePath().normalize())) {
			modules = children.filter((dir) -> dir.getFileName().toString().startsWith("limiter-"))
				.filter((dir) -> Files.isDirectory(dir.resolve("src/main/java")))
				.toList();
		}
		for (Path module : modules) {
			Path sources = module.resolve("src/main/java");
			try (Stream<Path> files = Files.walk(sources)) {
				files.filter((file) -> file.toString().endsWith(".java"))
					.map((file) -> sources.relativize(file.getParent()).toString().replace('/', '.'))
					.forEach((name) -> modulesOfPackage.computeIfAbsent(name, (key) -> new TreeSet<>())
						.add(module.getFileName().toString()));
			}
		}
		assertThat(modules).extracting((dir) -> dir.getFileName().toString())
			.contains("limiter-core", "limiter-spring", "limiter-spring-webflux", "limiter-spring-boot-starter",
					"limiter-spring-boot4-starter");
		assertThat(modulesOfPackage).as("packages found")
			.containsKeys("dev.limiter.core", "dev.limiter.servlet", "dev.limiter.decision", "dev.limiter.reactive");
		assertThat(modulesOfPackage).as("packages split across modules")
			.allSatisfy((name, owners) -> assertThat(owners).as(name).hasSize(1));
	}

}
