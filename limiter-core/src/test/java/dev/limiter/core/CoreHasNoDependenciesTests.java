package dev.limiter.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The core's boundaries. It depends on the JDK only. Its packages depend one way:
 * {@code dev.limiter.core.internal} (the implementations, nothing of it API) may use
 * {@code dev.limiter.core}, and {@code dev.limiter.core} reaches {@code internal} only
 * through the one factory, {@link RateLimitStores}. A {@link Lease} knows only the
 * {@link Lease.Issuer} it goes back to, never the store's type, so that a decision, its
 * lease and the store that issued it do not depend on one another in a ring.
 */
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

	@Test
	void leaseWhenAnalyzedShouldNotKnowTheStoreType() {
		noClasses().that()
			.belongToAnyOf(Lease.class)
			.should()
			.dependOnClassesThat()
			.areAssignableTo(RateLimitStore.class)
			.check(core);
	}

}
