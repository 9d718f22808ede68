package dev.limiter.routes;

import dev.limiter.core.Sha256;
import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Static resources and the API documentation (springdoc's {@code /v3/api-docs}) spend no
 * budget by default, and are listed as exempt with their reason; with
 * {@code limiter.count-static-resources=true} they are counted like any request. A path
 * the catch-all resource handler matches but no file answers is a 404, counted.
 */
class StaticResourcesHttpTests {

	private static final String STATIC_LOCATION = "spring.web.resources.static-locations=classpath:/static-resources-test/";

	private static final String ALICE = "standard/t:" + Sha256.base64Url("good-alice");

	@Nested
	@RoutesHttpTest(properties = STATIC_LOCATION)
	class ByDefault {

		@LocalServerPort
		private int port;

		@Autowired
		private RecordingStore store;

		@Autowired
		private RouteInventoryCheck inventory;

		@BeforeEach
		void freshCounters() {
			store.clear();
		}

		@Test
		void staticResourceAndApiDocsWhenReadShouldNotBeCounted() throws Exception {
			HttpSupport http = new HttpSupport(port);
			assertThat(http.get("/site.css", "good-alice").statusCode()).isEqualTo(200);
			assertThat(http.get("/site.css", null).statusCode()).isEqualTo(200);
			assertThat(http.get("/v3/api-docs", "good-alice").statusCode()).isEqualTo(200);
			assertThat(store.keys()).isEmpty();

			assertThat(http.get("/plain", "good-alice").statusCode()).isEqualTo(200);
			assertThat(store.keys()).containsExactly(ALICE);
		}

		@Test
		void pathWhenNoFileAnswersShouldStillBeCounted() throws Exception {
			HttpSupport http = new HttpSupport(port);
			assertThat(http.get("/missing.css", "good-alice").statusCode()).isEqualTo(404);
			assertThat(http.send("POST", "/site.css", "good-alice").statusCode()).isNotEqualTo(200);
			assertThat(store.keys()).containsExactly(ALICE, ALICE);
		}

		@Test
		void inventoryWhenBuiltShouldListStaticResourcesAndApiDocsAsExemptWithTheirReason() {
			RouteInventory.Entry files = entry("/**");
			assertThat(files.handler()).isEqualTo("ResourceHttpRequestHandler");
			assertThat(files.exempt()).isTrue();
			assertThat(files.reason()).isEqualTo("static resource; limiter.count-static-resources=false");
			assertThat(files.source()).isEqualTo(RouteSource.BUILT_IN);
			RouteInventory.Entry docs = entry("/v3/api-docs");
			assertThat(docs.exempt()).isTrue();
			assertThat(docs.reason()).isEqualTo("API documentation; limiter.count-static-resources=false");
			assertThat(docs.source()).isEqualTo(RouteSource.BUILT_IN);
			assertThat(inventory.inventory().implicitDefaults()).extracting(RouteInventory.Entry::pattern)
				.doesNotContain("/**", "/webjars/**", "/v3/api-docs");
		}

		private RouteInventory.Entry entry(String pattern) {
			return inventory.inventory()
				.entries()
				.stream()
				.filter(e -> e.pattern().equals(pattern))
				.findFirst()
				.orElseThrow();
		}

	}

	@Nested
	@RoutesHttpTest(properties = { STATIC_LOCATION, "limiter.count-static-resources=true" })
	class WhenCounted {

		@LocalServerPort
		private int port;

		@Autowired
		private RecordingStore store;

		@Autowired
		private RouteInventoryCheck inventory;

		@BeforeEach
		void freshCounters() {
			store.clear();
		}

		@Test
		void staticResourceAndApiDocsWhenReadShouldBeCounted() throws Exception {
			HttpSupport http = new HttpSupport(port);
			assertThat(http.get("/site.css", "good-alice").statusCode()).isEqualTo(200);
			assertThat(http.get("/v3/api-docs", "good-alice").statusCode()).isEqualTo(200);
			assertThat(store.keys()).containsExactly(ALICE, ALICE);
			RouteInventory.Entry docs = inventory.inventory()
				.entries()
				.stream()
				.filter(e -> e.pattern().equals("/v3/api-docs"))
				.findFirst()
				.orElseThrow();
			assertThat(docs.exempt()).isFalse();
			assertThat(docs.budget()).isEqualTo("standard");
		}

	}

}
