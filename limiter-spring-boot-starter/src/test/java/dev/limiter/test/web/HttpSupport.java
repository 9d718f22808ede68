package dev.limiter.test.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Sends real HTTP requests to a test application on its port. */
public final class HttpSupport {

	private final HttpClient http = HttpClient.newHttpClient();

	private final int port;

	public HttpSupport(int port) {
		this.port = port;
	}

	public HttpResponse<String> send(String method, String path, String token) throws Exception {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody());
		if (token != null) {
			builder.header("Authorization", "Bearer " + token);
		}
		return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
	}

	public HttpResponse<String> get(String path, String token) throws Exception {
		return send("GET", path, token);
	}

}
