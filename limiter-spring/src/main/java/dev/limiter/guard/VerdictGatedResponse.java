package dev.limiter.guard;

import java.io.IOException;

import dev.limiter.web.AnswerDroppingResponse;
import dev.limiter.web.PendingVerdict;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The response of a request whose guard admission is still on its way: nothing the chain
 * sends reaches the client before the admission is known, so that a refused request never
 * shows the lookup's verdict (a 401, or the application's answer). Once refused (the
 * refusal is written by the {@link PendingVerdict}), whatever the chain still writes is
 * dropped.
 */
final class VerdictGatedResponse extends AnswerDroppingResponse {

	private final PendingVerdict verdict;

	VerdictGatedResponse(HttpServletResponse response, PendingVerdict verdict) {
		super(response);
		this.verdict = verdict;
	}

	@Override
	protected boolean decide() throws IOException {
		return verdict.refused();
	}

}
