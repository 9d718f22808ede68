package dev.limiter.guard;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.limiter.web.PendingVerdict;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing the chain sends passes a guard verdict still on its way; after a refusal, what
 * the chain writes is dropped.
 */
class VerdictGatedResponseTests {

	private final MockHttpServletResponse raw = new MockHttpServletResponse();

	private final AtomicInteger asked = new AtomicInteger();

	@Test
	void responseWhenTheVerdictRefusesShouldDropTheLookupsAnswer() throws IOException {
		VerdictGatedResponse gated = new VerdictGatedResponse(raw, verdict(true));

		gated.setHeader("WWW-Authenticate", "Bearer");
		gated.sendError(401);
		gated.setHeader("X-After", "dropped");
		gated.getWriter().write("the lookup's verdict");
		gated.getOutputStream().write(1);
		gated.flushBuffer();

		assertThat(raw.getStatus()).isEqualTo(429);
		assertThat(raw.getContentAsString()).isEqualTo("refused");
		assertThat(raw.getHeader("X-After")).isNull();
		assertThat(asked).as("the verdict is read once").hasValue(1);
	}

	@Test
	void responseWhenTheVerdictAdmitsShouldPassEverythingOn() throws IOException {
		VerdictGatedResponse gated = new VerdictGatedResponse(raw, verdict(false));

		gated.setHeader("X-Before", "kept");
		gated.getWriter().write("hello");
		gated.flushBuffer();

		assertThat(raw.getStatus()).isEqualTo(200);
		assertThat(raw.getContentAsString()).isEqualTo("hello");
		assertThat(raw.getHeader("X-Before")).isEqualTo("kept");
	}

	@Test
	void responseWhenOnlyHeadersAreSetShouldNotWaitForTheVerdict() {
		VerdictGatedResponse gated = new VerdictGatedResponse(raw, verdict(true));

		gated.setStatus(401);
		gated.setHeader("WWW-Authenticate", "Bearer");

		assertThat(asked).as("nothing is sent yet: the guard filter decides at the end").hasValue(0);
	}

	private PendingVerdict verdict(boolean refuses) {
		return new PendingVerdict() {

			private boolean written;

			@Override
			public boolean refused() throws IOException {
				asked.incrementAndGet();
				if (refuses && !written) {
					written = true;
					raw.reset();
					raw.setStatus(429);
					raw.getWriter().write("refused");
				}
				return refuses;
			}

		};
	}

}
