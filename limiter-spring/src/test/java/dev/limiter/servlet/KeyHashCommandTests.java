package dev.limiter.servlet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import dev.limiter.core.Sha256;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The one-line shell command docs/observability.md gives operators for the key hash of a
 * token is the command tested here, and it prints exactly the counter key the default key
 * resolver produces.
 */
class KeyHashCommandTests {

	static final String COMMAND = "printf 't:%s\\n' \"$(printf %s \"$TOKEN\" | openssl dgst -sha256 -binary "
			+ "| openssl base64 -A | tr '+/' '-_' | tr -d '=')\"";

	@ParameterizedTest
	@ValueSource(strings = { "sp_DEMO0000000000000000000000000001", "good-alice", "a token with spaces",
			"ünïcødé-tøkén", "x" })
	void documentedCommandWhenRunShouldPrintTheCounterKeyOfTheToken(String token) throws Exception {
		assumeTrue(onPath("openssl"), "openssl is not installed");
		ProcessBuilder builder = new ProcessBuilder("sh", "-c", COMMAND).redirectErrorStream(true);
		builder.environment().put("TOKEN", token);
		builder.environment().put("LC_ALL", "C.UTF-8");
		Process process = builder.start();
		String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isZero();
		assertThat(printed).isEqualTo(DefaultKeyResolver.TOKEN_PREFIX + Sha256.base64Url(token) + "\n");
	}

	@Test
	void observabilityDocsWhenReadShouldShowExactlyTheTestedCommand() throws Exception {
		String docs = Files.readString(Path.of("..", "docs", "observability.md"));
		assertThat(docs).contains(COMMAND);
	}

	private static boolean onPath(String binary) throws Exception {
		return new ProcessBuilder("sh", "-c", "command -v " + binary).start().waitFor() == 0;
	}

}
