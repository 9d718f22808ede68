package dev.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.limiter.core.WindowAlgorithm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every window algorithm has its twin in each script and the reverse: the keys of a
 * script's {@code algorithms} table are exactly the codes the {@link WindowCodec} of
 * every {@link WindowAlgorithm} sends, so a Java algorithm without a Lua block (or a Lua
 * block no codec selects) fails here, not in production.
 */
class WindowCodecScriptTests {

	private static final Pattern BLOCK = Pattern.compile("(?m)^algorithms\\.([A-Za-z_][A-Za-z0-9_]*) = ");

	@ParameterizedTest
	@ValueSource(strings = { "take.lua", "settle.lua" })
	void scriptWhenReadShouldHaveOneAlgorithmBlockPerWindowAlgorithm(String script) throws IOException {
		Set<String> codes = Arrays.stream(WindowAlgorithm.values())
			.map((algorithm) -> WindowCodec.of(algorithm).code())
			.collect(Collectors.toCollection(TreeSet::new));

		assertThat(blocks(read(script))).isEqualTo(codes);
	}

	@ParameterizedTest
	@ValueSource(strings = { "take.lua", "settle.lua" })
	void blocksWhenAScriptLacksOneShouldDifferFromTheCodes(String script) throws IOException {
		String withoutTokenBucket = read(script).replace("algorithms.t = ", "local unused = ");

		assertThat(blocks(withoutTokenBucket)).doesNotContain(WindowCodec.of(WindowAlgorithm.TOKEN_BUCKET).code());
	}

	@Test
	void codecWhenSelectedShouldBeTheOneOfItsAlgorithmWithItsOwnCode() {
		for (WindowAlgorithm algorithm : WindowAlgorithm.values()) {
			assertThat(WindowCodec.of(algorithm).algorithm()).isEqualTo(algorithm);
		}
		assertThat(WindowCodec.ALL.stream().map(WindowCodec::code).distinct()).hasSize(WindowCodec.ALL.size());
		assertThat(WindowCodec.ALL).hasSize(WindowAlgorithm.values().length);
	}

	private static Set<String> blocks(String source) {
		Set<String> keys = new TreeSet<>();
		Matcher matcher = BLOCK.matcher(source);
		while (matcher.find()) {
			keys.add(matcher.group(1));
		}
		return keys;
	}

	private static String read(String script) throws IOException {
		try (InputStream in = RedisScriptCalls.class.getResourceAsStream(script)) {
			assertThat(in).as(script).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
