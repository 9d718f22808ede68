package dev.limiter.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.limiter.test.web.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TokenServiceTests {

	private static final String DEMO = "sp_DEMO0000000000000000000000000001";

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@Test
	void mintWhenPastTheBoundShouldForgetTheOldestTrialTokens() {
		TokenService tokens = new TokenService(properties(3, Duration.ofHours(1)), clock);
		List<String> minted = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			minted.add(tokens.mintTrialToken());
		}
		assertThat(tokens.trialTokenCount()).isEqualTo(3);
		assertThat(tokens.authenticate(minted.get(0))).isEmpty();
		assertThat(tokens.authenticate(minted.get(1))).isEmpty();
		assertThat(tokens.authenticate(minted.get(4))).hasValueSatisfying(h -> assertThat(h.trial()).isTrue());
		assertThat(tokens.authenticate(DEMO)).as("the demo token is never evicted").isPresent();
	}

	@Test
	void authenticateWhenTrialTokenOutlivedItsLifetimeShouldFail() {
		TokenService tokens = new TokenService(properties(10, Duration.ofMinutes(30)), clock);
		String token = tokens.mintTrialToken();
		clock.set(clock.instant().plus(Duration.ofMinutes(29)));
		assertThat(tokens.authenticate(token)).isPresent();
		clock.set(clock.instant().plus(Duration.ofMinutes(1)));
		assertThat(tokens.authenticate(token)).isEmpty();
	}

	@Test
	void mintWhenEarlierTokensExpiredShouldEvictThem() {
		TokenService tokens = new TokenService(properties(10, Duration.ofMinutes(30)), clock);
		tokens.mintTrialToken();
		tokens.mintTrialToken();
		clock.set(clock.instant().plus(Duration.ofMinutes(31)));
		tokens.mintTrialToken();
		assertThat(tokens.trialTokenCount()).isEqualTo(1);
	}

	@Test
	void constructWhenTrialLifetimeIsZeroShouldNameTheProperty() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenService(properties(10, Duration.ZERO), clock))
			.withMessageContaining("sample.trial-token-lifetime");
	}

	@Test
	void authenticateWhenExtraDemoTokensAreListedShouldKnowEachApart() {
		SampleProperties properties = properties(10, Duration.ofHours(1));
		String first = "sp_BENCH000000000000000000000000001";
		String second = "sp_BENCH000000000000000000000000002";
		properties.setExtraDemoTokens(List.of(first, second));
		TokenService tokens = new TokenService(properties, clock);
		assertThat(tokens.authenticate(first)).hasValueSatisfying((holder) -> {
			assertThat(holder.trial()).isFalse();
			assertThat(holder.tokenHash()).isEqualTo(TokenService.hash(first));
		});
		assertThat(tokens.authenticate(second).map(TokenService.TokenHolder::tokenHash))
			.contains(TokenService.hash(second));
		assertThat(tokens.authenticate(first).map(TokenService.TokenHolder::name))
			.isNotEqualTo(tokens.authenticate(second).map(TokenService.TokenHolder::name));
		assertThat(tokens.authenticate("sp_BENCH000000000000000000000000003")).isEmpty();
		assertThat(tokens.authenticate(DEMO))
			.hasValueSatisfying((holder) -> assertThat(holder.name()).isEqualTo("demo"));
	}

	@Test
	void constructWhenAnExtraDemoTokenIsMalformedShouldNameTheProperty() {
		SampleProperties properties = properties(10, Duration.ofHours(1));
		properties.setExtraDemoTokens(List.of("sp_BENCH000000000000000000000000001", "not-a-token"));
		assertThatIllegalArgumentException().isThrownBy(() -> new TokenService(properties, clock))
			.withMessageContaining("sample.extra-demo-tokens[1]");
	}

	private static SampleProperties properties(int maxTrialTokens, Duration lifetime) {
		SampleProperties properties = new SampleProperties();
		properties.setDemoToken(DEMO);
		properties.setMaxTrialTokens(maxTrialTokens);
		properties.setTrialTokenLifetime(lifetime);
		return properties;
	}

}
