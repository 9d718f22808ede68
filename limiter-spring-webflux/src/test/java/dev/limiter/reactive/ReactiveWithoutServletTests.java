package dev.limiter.reactive;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.limiter.test.reactive.BlockHoundExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The reactive module runs in an application without the Servlet API, Tomcat or Spring
 * MVC: none of its classes names them, and its own tests run without them on the class
 * path.
 */
@ExtendWith(BlockHoundExtension.class)
class ReactiveWithoutServletTests {

	private final JavaClasses reactive = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.limiter.reactive");

	@Test
	void reactiveClassesWhenImportedShouldNameNoServletOrSpringMvcType() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAnyPackage("jakarta.servlet..", "org.springframework.web.servlet..", "org.apache.catalina..",
					"org.apache.tomcat..")
			.check(reactive);
	}

	@Test
	void reactiveRuntimeWhenImportedShouldNameNoWiring() {
		noClasses().that()
			.resideInAPackage("dev.limiter.reactive")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("dev.limiter.autoconfigure..", "dev.limiter.reactive.autoconfigure..",
					"org.springframework.boot..")
			.check(reactive);
	}

	@Test
	void servletApiWhenTheModuleTestsRunShouldNotBeLoadable() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("jakarta.servlet.Filter"));
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.springframework.web.servlet.DispatcherServlet"));
	}

}
