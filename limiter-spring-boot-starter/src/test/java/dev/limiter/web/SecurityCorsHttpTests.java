package dev.limiter.web;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * CORS configured in Spring Security: {@code http.cors(...)} with a
 * {@code CorsConfigurationSource} bean that exposes a header of the application's own.
 * Its filter sets the CORS headers before the limiter runs; the guard and the body bound
 * run before it.
 */
@SpringBootTest(classes = CorsTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { CorsHttpTest.PROPERTIES, CorsHttpTest.LIMIT, CorsHttpTest.GUARD, CorsHttpTest.BODY })
@ActiveProfiles(CorsTestApplication.SECURITY_CORS)
class SecurityCorsHttpTests extends CorsHttpTest {

	@Override
	List<String> paths() {
		return List.of("/sec/hello");
	}

	@Override
	List<String> uploads() {
		return List.of("/sec/upload");
	}

	@Override
	boolean applicationExposes(String path) {
		return true;
	}

}
