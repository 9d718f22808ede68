package dev.limiter.gateway.webmvc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

import dev.limiter.core.Budget;
import dev.limiter.decision.UsageReportHeader;
import dev.limiter.servlet.ReservedUsage;
import dev.limiter.spring.RateLimitUsage;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;

/**
 * The usage a downstream response reports in {@code limiter.gateway.report-header}: read
 * once from the response the route's handler returned, reported to the request's
 * {@link RateLimitUsage} (settled once, when the servlet filter sees the request end),
 * and removed from the response before anything of it is written to the client.
 */
public final class UsageReports {

	/**
	 * {@code HttpHeaders.get} and {@code remove}: their parameter is an {@code Object} on
	 * Spring Framework 6 (a map's) and a {@code String} on 7, so no one call compiles to
	 * both; each is found once, on the line the application runs.
	 */
	private static final MethodHandle GET = byName("get");

	private static final MethodHandle REMOVE = byName("remove");

	private final UsageReportHeader header;

	public UsageReports(UsageReportHeader header) {
		this.header = header;
	}

	String headerName() {
		return header.name();
	}

	/**
	 * Reports what {@code headers} carry against what {@code request} reserved, and
	 * strips the header; a request that reserved nothing reports nothing.
	 */
	void settle(HttpServletRequest request, HttpHeaders headers) {
		List<String> values = call(GET, headers, header.name());
		call(REMOVE, headers, header.name());
		Budget budget = ReservedUsage.budgetOf(request);
		RateLimitUsage usage = RateLimitUsage.of(request).orElse(null);
		if (budget != null && usage != null) {
			header.report(values, budget, usage);
		}
	}

	@SuppressWarnings("unchecked")
	private static List<String> call(MethodHandle method, HttpHeaders headers, String name) {
		try {
			return (List<String>) method.invoke(headers, name);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static MethodHandle byName(String method) {
		MethodHandles.Lookup lookup = MethodHandles.publicLookup();
		MethodType called = MethodType.methodType(List.class, HttpHeaders.class, String.class);
		try {
			return lookup.findVirtual(HttpHeaders.class, method, MethodType.methodType(List.class, String.class))
				.asType(called);
		}
		catch (NoSuchMethodException | IllegalAccessException onFramework6) {
			try {
				return lookup.findVirtual(HttpHeaders.class, method, MethodType.methodType(List.class, Object.class))
					.asType(called);
			}
			catch (NoSuchMethodException | IllegalAccessException ex) {
				throw new IllegalStateException("HttpHeaders has no " + method + " method", ex);
			}
		}
	}

}
