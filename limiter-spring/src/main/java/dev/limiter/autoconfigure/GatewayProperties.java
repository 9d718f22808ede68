package dev.limiter.autoconfigure;

/** The limiter on a Spring Cloud Gateway's routes. */
public class GatewayProperties {

	/**
	 * Response header (e.g. X-Usage-Tokens) in which a backend behind the gateway reports
	 * what a call cost, settled against the route's estimate and stripped before the
	 * response reaches the client; unset: no report.
	 */
	private String reportHeader;

	public String getReportHeader() {
		return reportHeader;
	}

	public void setReportHeader(String reportHeader) {
		this.reportHeader = reportHeader;
	}

}
