package dev.limiter.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime (what decides and counts) knows nothing of how Spring Boot wires it: the
 * wiring lives under {@code dev.limiter.autoconfigure}, so each Boot line's starter can
 * reuse the runtime unchanged.
 */
class WiringApartFromRuntimeTests {

	private static final String[] RUNTIME = { "dev.limiter.servlet..", "dev.limiter.spring..", "dev.limiter.guard..",
			"dev.limiter.redis..", "dev.limiter.resilience..", "dev.limiter.routes..", "dev.limiter.metrics..",
			"dev.limiter.web..", "dev.limiter.actuate.." };

	/** Imported once for the class: an import per test took most of its run time. */
	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.limiter");

	@Test
	void runtimeWhenAnalyzedShouldNotDependOnTheWiring() {
		noClasses().that()
			.resideInAnyPackage(RUNTIME)
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.limiter.autoconfigure..")
			.check(CLASSES);
	}

	@Test
	void runtimeWhenAnalyzedShouldNotDependOnSpringBoot() {
		noClasses().that()
			.resideInAnyPackage(RUNTIME)
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot..")
			.check(CLASSES);
	}

	/**
	 * {@code dev.limiter.core.internal} is the core's implementation, nothing of it API:
	 * every other module reaches it through {@code dev.limiter.core.RateLimitStores}.
	 */
	@Test
	void classesOutsideTheCoreWhenAnalyzedShouldNotDependOnTheCoresInternals() {
		noClasses().that()
			.resideOutsideOfPackage("dev.limiter.core..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.limiter.core.internal..")
			.check(CLASSES);
	}

	@Test
	void packagesWhenAnalyzedShouldBeFreeOfCycles() {
		slices().matching("dev.limiter.(*)..").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void importedClassesWhenAnalyzedShouldContainTheRuntime() {
		// A rule over no classes passes whatever the code does; make sure the import saw
		// the runtime.
		assertThat(CLASSES.containPackage("dev.limiter.servlet")).isTrue();
		assertThat(CLASSES.containPackage("dev.limiter.autoconfigure")).isTrue();
	}

}
