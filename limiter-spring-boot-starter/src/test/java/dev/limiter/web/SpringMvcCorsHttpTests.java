package dev.limiter.web;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * CORS configured in Spring MVC: {@code @CrossOrigin} on a controller (exposing a header
 * of its own) and a {@code CorsRegistry} mapping.
 */
@SpringBootTest(classes = CorsTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { CorsHttpTest.PROPERTIES, CorsHttpTest.LIMIT, CorsHttpTest.GUARD, CorsHttpTest.BODY })
class SpringMvcCorsHttpTests extends CorsHttpTest {

	@Override
	List<String> paths() {
		return List.of("/cross/hello", "/registry/hello");
	}

	@Override
	List<String> uploads() {
		return List.of("/registry/upload");
	}

	@Override
	boolean applicationExposes(String path) {
		return path.startsWith("/cross");
	}

}
