package dev.limiter.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;

import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.InvalidValueException;
import dev.limiter.core.Window;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.redis.RedisRateLimitStore;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The one mapping from a rejected field to the property that sets it. */
class FieldPropertiesTests {

	@Test
	void invalidWhenTheMessageNamesAnotherFieldShouldStillNameTheRejectedOne() {
		// The message mentions the duration; the field says the limit was rejected.
		InvalidValueException ex = new InvalidValueException(Window.Field.LIMIT, "window 'minute' (duration 1m): ",
				"the limit must be at least 1");
		assertThat(FieldProperties.invalid("budgets.standard.windows.minute", ex).getProperty())
			.isEqualTo("limiter.budgets.standard.windows.minute.limit");
	}

	@Test
	void invalidWhenTheRedisStoreBuilderRejectsAValueShouldNameThatValuesProperty() {
		LettuceConnectionFactory connections = new LettuceConnectionFactory();
		InvalidValueException prefix = catchThrowableOfType(InvalidValueException.class,
				() -> RedisRateLimitStore.builder(connections).keyPrefix("a{b}").build());
		InvalidValueException timeout = catchThrowableOfType(InvalidValueException.class,
				() -> RedisRateLimitStore.builder(connections).timeout(Duration.ZERO));
		assertThat(FieldProperties.invalid("redis", prefix).getProperty()).isEqualTo("limiter.redis.key-prefix");
		assertThat(FieldProperties.invalid("redis", timeout).getProperty()).isEqualTo("limiter.redis.timeout");
	}

	@Test
	void propertyWhenAnyFieldOfAConfiguredTypeShouldBeMappedUnlessNoPropertySetsIt() {
		Set<Enum<?>> noProperty = Set.of(Budget.Field.COST, AuthGuardPolicy.Field.LOOKUP_LEASE,
				RedisRateLimitStore.Field.EXPIRY_MARGIN, RedisRateLimitStore.Field.MAX_BLOCKING_CALLS);
		Stream
			.of(EnumSet.allOf(Window.Field.class), EnumSet.allOf(Budget.Field.class),
					EnumSet.allOf(ConcurrencyBound.Field.class), EnumSet.allOf(AuthGuardPolicy.Field.class),
					EnumSet.allOf(RedisRateLimitStore.Field.class))
			.flatMap(Set::stream)
			.forEach(field -> assertThat(FieldProperties.property(field)).as(field.toString())
				.matches(property -> noProperty.contains(field) ? property == null : property != null));
	}

}
