package dev.limiter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring Boot 3.4 is the floor: nothing 3.5-only in the auto-configuration, and a clear
 * stop below it.
 */
class BootFloorTests {

	@Test
	void autoConfigurationsWhenScannedShouldUseNoConditionalOnPropertiesContainer() throws Exception {
		List<String> offenders = new ArrayList<>();
		for (String name : autoConfigurations()) {
			collect(Class.forName(name), offenders);
		}
		assertThat(offenders).isEmpty();
	}

	@Test
	void checkWhenBootThreeThreeShouldStopNamingTheSupportedVersions() {
		assertThatThrownBy(() -> SupportedBootVersion.check("3.3.13"))
			.isInstanceOf(SupportedBootVersion.UnsupportedBootVersionException.class)
			.hasMessage("limiter-spring-boot-starter supports Spring Boot 3.4.x and 3.5.x (JDK 17 to 25); "
					+ "this application runs Spring Boot 3.3.13");
	}

	@Test
	void checkWhenBootTwoShouldStop() {
		assertThatThrownBy(() -> SupportedBootVersion.check("2.7.18"))
			.isInstanceOf(SupportedBootVersion.UnsupportedBootVersionException.class);
	}

	@Test
	void checkWhenBootThreeFourOrThreeFiveShouldPass() {
		assertThatCode(() -> SupportedBootVersion.check("3.4.13")).doesNotThrowAnyException();
		assertThatCode(() -> SupportedBootVersion.check("3.5.7")).doesNotThrowAnyException();
		assertThatCode(() -> SupportedBootVersion.check(null)).doesNotThrowAnyException();
	}

	@Test
	@SuppressWarnings("deprecation")
	void checkWhenRegisteredShouldRunBeforeAutoConfiguration() {
		assertThat(SpringFactoriesLoader.loadFactoryNames(EnvironmentPostProcessor.class,
				BootFloorTests.class.getClassLoader()))
			.contains(SupportedBootVersion.class.getName());
	}

	@Test
	void failureAnalysisWhenBootIsUnsupportedShouldBeOneLineNamingTheSupportedVersions() {
		FailureAnalysis analysis = new UnsupportedBootVersionFailureAnalyzer()
			.analyze(new SupportedBootVersion.UnsupportedBootVersionException("limiter-spring-boot-starter supports "
					+ "Spring Boot 3.4.x and 3.5.x (JDK 17 to 25); this application runs Spring Boot 3.3.13"));
		assertThat(analysis.getDescription()).doesNotContain("\n").contains("3.4.x and 3.5.x").contains("3.3.13");
	}

	private static void collect(Class<?> type, List<String> offenders) {
		check(type.getName(), type.getDeclaredAnnotations(), offenders);
		for (Method method : type.getDeclaredMethods()) {
			check(type.getName() + "#" + method.getName(), method.getDeclaredAnnotations(), offenders);
		}
		for (Class<?> nested : type.getDeclaredClasses()) {
			collect(nested, offenders);
		}
	}

	private static void check(String where, Annotation[] annotations, List<String> offenders) {
		for (Annotation annotation : annotations) {
			// Boot 3.5's container for a repeated @ConditionalOnProperty; Boot 3.4 does
			// not know it and drops it
			if (annotation.annotationType().getSimpleName().equals("ConditionalOnProperties")) {
				offenders.add(where);
			}
		}
	}

	private static List<String> autoConfigurations() throws IOException {
		try (InputStream in = BootFloorTests.class
			.getResourceAsStream("/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
				.map(String::trim)
				.filter(line -> !line.isEmpty() && !line.startsWith("#"))
				.toList();
		}
	}

}
