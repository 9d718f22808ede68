package dev.limiter.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

class CoreHasNoDependenciesTests {

	private final JavaClasses core = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.limiter.core");

	@Test
	void coreWhenAnalyzedShouldDependOnlyOnTheJdk() {
		classes().should().onlyDependOnClassesThat().resideInAnyPackage("dev.limiter.core..", "java..").check(core);
	}

	@Test
	void apiWhenAnalyzedShouldReachImplementationsOnlyThroughFactories() {
		noClasses().that()
			.resideInAPackage("dev.limiter.core")
			.and()
			.doNotHaveSimpleName("RateLimitStores")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.limiter.core.internal")
			.check(core);
	}

}
