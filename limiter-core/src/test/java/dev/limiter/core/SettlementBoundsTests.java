package dev.limiter.core;

import java.math.BigInteger;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SettlementBoundsTests {

	private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

	@Property(tries = 2_000)
	void saturatedProductWhenFactorsAreNotNegativeShouldBeTheExactProductOrTheLargestLong(@ForAll("notNegative") long a,
			@ForAll("notNegative") long b) {
		BigInteger exact = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b));
		assertThat(SettlementBounds.saturatedProduct(a, b)).isEqualTo(exact.min(MAX).longValueExact());
	}

	@Test
	void saturatedProductWhenAtTheEdgesShouldSaturateOnlyBeyondTheLargestLong() {
		assertThat(SettlementBounds.saturatedProduct(0, Long.MAX_VALUE)).isZero();
		assertThat(SettlementBounds.saturatedProduct(Long.MAX_VALUE, 0)).isZero();
		assertThat(SettlementBounds.saturatedProduct(1, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
		assertThat(SettlementBounds.saturatedProduct(2, Long.MAX_VALUE / 2)).isEqualTo(Long.MAX_VALUE - 1);
		assertThat(SettlementBounds.saturatedProduct(2, Long.MAX_VALUE / 2 + 1)).isEqualTo(Long.MAX_VALUE);
		assertThat(SettlementBounds.saturatedProduct(3_037_000_499L, 3_037_000_499L))
			.isEqualTo(9_223_372_030_926_249_001L);
		assertThat(SettlementBounds.saturatedProduct(3_037_000_500L, 3_037_000_500L)).isEqualTo(Long.MAX_VALUE);
		assertThat(SettlementBounds.saturatedProduct(1L << 32, 1L << 32)).isEqualTo(Long.MAX_VALUE);
	}

	@Provide
	Arbitrary<Long> notNegative() {
		// small, around the square root of the largest long, and anywhere
		return Arbitraries.oneOf(Arbitraries.longs().between(0, 100_000),
				Arbitraries.longs().between(3_000_000_000L, 3_100_000_000L), Arbitraries.longs().greaterOrEqual(0));
	}

}
