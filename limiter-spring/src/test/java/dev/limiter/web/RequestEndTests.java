package dev.limiter.web;

import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.AsyncEvent;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

class RequestEndTests {

	private final List<String> ends = new ArrayList<>();

	private final RequestEnd end = new RequestEnd((status, completed) -> ends.add(status + "/" + completed));

	@Test
	void endWhenCalledTwiceShouldRunTheActionOnce() {
		end.end(200, true);
		end.end(500, false);

		assertThat(ends).containsExactly("200/true");
	}

	@Test
	void onCompleteWhenTheAsyncRequestCompletesShouldPassTheResponseStatus() {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setStatus(401);

		end.onComplete(new AsyncEvent(null, new MockHttpServletRequest(), response));

		assertThat(ends).containsExactly("401/true");
	}

	@Test
	void onTimeoutWhenTheAsyncRequestTimesOutShouldSayItDidNotComplete() {
		end.onTimeout(new AsyncEvent(null, new MockHttpServletRequest(), new MockHttpServletResponse()));
		end.onComplete(new AsyncEvent(null, new MockHttpServletRequest(), new MockHttpServletResponse()));

		assertThat(ends).containsExactly("0/false");
	}

	@Test
	void onStartAsyncWhenTheRequestRestartsShouldListenToTheNewCycle() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		MockHttpServletResponse response = new MockHttpServletResponse();
		MockAsyncContext context = new MockAsyncContext(request, response);

		end.onStartAsync(new AsyncEvent(context, request, response));
		context.complete();

		assertThat(ends).containsExactly("200/true");
	}

}
