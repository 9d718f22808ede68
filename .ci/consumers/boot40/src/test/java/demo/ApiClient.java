package demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The application's users over a real port: HTTP Basic credentials and, when given one,
 * an {@code Origin} header, so a cross-origin case is one more argument.
 */
final class ApiClient {

	static final String ORIGIN = "https://app.example";

	static final Credentials ALICE = new Credentials("alice", "alice-secret");

	static final Credentials BOB = new Credentials("bob", "bob-secret");

	private final HttpClient http = HttpClient.newHttpClient();

	private final int port;

	ApiClient(int port) {
		this.port = port;
	}

	/**
	 * Sends a GET to the application on its port.
	 * @param path the path
	 * @param credentials sent as HTTP Basic, or {@code null} for none
	 * @param origin sent as {@code Origin}, or {@code null} for a same-origin request
	 * @return the response
	 */
	HttpResponse<String> send(String path, Credentials credentials, String origin) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
		if (credentials != null) {
			String basic = credentials.user() + ":" + credentials.password();
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
		}
		if (origin != null) {
			request.header("Origin", origin);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	record Credentials(String user, String password) {
	}

}
