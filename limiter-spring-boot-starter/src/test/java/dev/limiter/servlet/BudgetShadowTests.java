package dev.limiter.servlet;

import dev.limiter.test.web.HttpSupport;
import dev.limiter.test.web.RecordingStore;
import dev.limiter.test.web.RoutesHttpTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * shadow: true on one budget: that budget's refusals pass marked, every other budget
 * still refuses.
 */
@RoutesHttpTest(properties = { "limiter.budgets.tight.shadow=true" })
class BudgetShadowTests {

	@LocalServerPort
	private int port;

	@Autowired
	private RecordingStore store;

	@Test
	void budgetWhenInShadowModeShouldPassItsRefusalsWhileOtherBudgetsEnforce() throws Exception {
		store.clear();
		HttpSupport http = new HttpSupport(port);
		for (int i = 0; i < 2; i++) {
			http.get("/plain/method", "good-mixed");
		}
		assertThat(http.get("/plain/method", "good-mixed").headers().firstValue("X-RateLimit-Shadow"))
			.contains("refused");
		for (int i = 0; i < 3; i++) {
			assertThat(http.get("/links/" + i, "good-mixed").statusCode()).isEqualTo(200);
		}
		assertThat(http.get("/links/9", "good-mixed").statusCode()).isEqualTo(429);
	}

}
