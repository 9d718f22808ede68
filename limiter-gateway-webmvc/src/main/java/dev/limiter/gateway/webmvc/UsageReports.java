package dev.limiter.gateway.webmvc;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;

final class UsageReports {

	void settle(HttpServletRequest request, HttpHeaders headers) {
	}

}
