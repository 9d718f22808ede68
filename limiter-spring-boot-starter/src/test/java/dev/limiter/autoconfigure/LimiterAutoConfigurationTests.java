package dev.limiter.autoconfigure;

import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import dev.limiter.core.Budget;
import dev.limiter.core.OverLimitRememberingStore;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStores;
import dev.limiter.servlet.DefaultKeyResolver;
import dev.limiter.servlet.DefaultRateLimitResponseWriter;
import dev.limiter.servlet.RateLimitFilter;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RateLimitRules;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class LimiterAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class));

	@Test
	void limiterWhenNothingConfiguredShouldRegisterEveryBean() {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(BudgetRegistry.class);
			assertThat(context).hasSingleBean(RateLimitStore.class);
			assertThat(context.getBean(LimiterAutoConfiguration.STORE_BEAN_NAME, RateLimitStore.class).name())
				.isEqualTo("memory");
			assertThat(context).hasBean(LimiterAutoConfiguration.CLOCK_BEAN_NAME);
			assertThat(context).hasSingleBean(KeyResolver.class);
			assertThat(context).hasSingleBean(RouteResolver.class);
			assertThat(context).hasSingleBean(RateLimitResponseWriter.class);
			assertThat(context).hasSingleBean(RateLimitFilter.class);
			assertThat(context).hasBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME);
		});
	}

	@Test
	void filterRegistrationWhenRegisteredShouldRunJustAfterSpringSecurityForRequestAndAsyncDispatches() {
		runner.run(context -> {
			FilterRegistrationBean<?> registration = context
				.getBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME, FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isSameAs(context.getBean(RateLimitFilter.class));
			assertThat(registration.getOrder()).isEqualTo(SecurityProperties.DEFAULT_FILTER_ORDER + 10);
			assertThat(registration.getOrder()).isGreaterThan(SecurityProperties.DEFAULT_FILTER_ORDER);
			assertThat(registration.determineDispatcherTypes()).containsExactlyInAnyOrder(DispatcherType.REQUEST,
					DispatcherType.ASYNC);
		});
	}

	@Test
	void filterRegistrationWhenSecurityFilterOrderIsMovedShouldFollowIt() {
		runner.withConfiguration(AutoConfigurations.of(SecurityAutoConfiguration.class))
			.withPropertyValues("spring.security.filter.order=5")
			.run(context -> assertThat(context
				.getBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME, FilterRegistrationBean.class)
				.getOrder()).isEqualTo(15));
	}

	@Test
	void limiterWhenDisabledShouldBackOff() {
		runner.withPropertyValues("limiter.enabled=false").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(BudgetRegistry.class);
			assertThat(context).doesNotHaveBean(RateLimitStore.class);
			assertThat(context).doesNotHaveBean(RateLimitFilter.class);
			assertThat(context).doesNotHaveBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME);
			assertThat(context).doesNotHaveBean(LimiterAutoConfiguration.CLOCK_BEAN_NAME);
		});
	}

	@Test
	void limiterWhenSpringSecurityIsAbsentShouldKeyOnTheContainerPrincipal() {
		runner.withClassLoader(new FilteredClassLoader("org.springframework.security")).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RateLimitFilter.class);
			assertThat(context
				.getBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME, FilterRegistrationBean.class)
				.getOrder()).isEqualTo(SecurityProperties.DEFAULT_FILTER_ORDER + 10);
			MockHttpServletRequest request = new MockHttpServletRequest();
			request.setUserPrincipal(() -> "alice");
			CallerKey caller = context.getBean(KeyResolver.class).resolve(request);
			assertThat(caller.authenticated()).isTrue();
			assertThat(caller.value()).startsWith(DefaultKeyResolver.PRINCIPAL_PREFIX).doesNotContain("alice");
		});
	}

	@Test
	void limiterWhenNotAServletApplicationShouldRegisterNoFilter() {
		new org.springframework.boot.test.context.runner.ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(LimiterAutoConfiguration.class, LimiterServletAutoConfiguration.class))
			.run(context -> {
				assertThat(context).hasSingleBean(BudgetRegistry.class);
				assertThat(context).doesNotHaveBean(RateLimitFilter.class);
			});
	}

	@Test
	void startupWhenTheContextStartsShouldLogTheStoreInUseOnce(CapturedOutput output) {
		runner.run(context -> assertThat(output.getOut().split("Limiter counting in store 'memory'", -1)).hasSize(2));
	}

	@Test
	void storeWhenRedisIsChosenWithoutAStoreBeanShouldFailNamingTheProperty() {
		runner.withPropertyValues("limiter.store=redis").run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("limiter.store")
				.hasMessageContaining("RateLimitStore");
		});
	}

	@Test
	void storeWhenRedisIsChosenAndAStoreBeanExistsShouldUseIt() {
		runner.withPropertyValues("limiter.store=redis").withUserConfiguration(UserStore.class).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RateLimitStore.class);
			assertThat(context.getBean(RateLimitStore.class)).isSameAs(context.getBean("userStore"));
		});
	}

	@Test
	void storeWhenMemoryShouldRememberKeysOverTheLimitInOneWrapper() {
		runner.withPropertyValues("limiter.memory.max-keys=500").run(context -> {
			assertThat(context.getBean(RateLimitStore.class)).isInstanceOfSatisfying(OverLimitRememberingStore.class,
					remembering -> assertThat(remembering.delegate())
						.isInstanceOf(dev.limiter.core.internal.InMemoryRateLimitStore.class));
			assertThat(context.getBean(RateLimitStore.class).name()).isEqualTo("memory");
		});
	}

	@Test
	void storeWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserStore.class).run(context -> {
			assertThat(context).hasSingleBean(RateLimitStore.class);
			assertThat(context).doesNotHaveBean(LimiterAutoConfiguration.STORE_BEAN_NAME);
		});
	}

	@Test
	void budgetRegistryWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserBudgets.class).run(context -> {
			assertThat(context).hasSingleBean(BudgetRegistry.class);
			assertThat(context.getBean(BudgetRegistry.class).defaultBudget().name()).isEqualTo("mine");
		});
	}

	@Test
	void clockWhenUserDefinesTheLimiterClockShouldBackOff() {
		runner.withUserConfiguration(UserLimiterClock.class)
			.run(context -> assertThat(context.getBean(LimiterAutoConfiguration.CLOCK_BEAN_NAME))
				.isSameAs(UserLimiterClock.CLOCK));
	}

	@Test
	void clockWhenTheApplicationHasItsOwnClockShouldNotClashWithIt() {
		runner.withUserConfiguration(ApplicationClock.class).run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(Clock.class)).isSameAs(ApplicationClock.CLOCK);
			assertThat(context.getBean(LimiterAutoConfiguration.CLOCK_BEAN_NAME)).isNotSameAs(ApplicationClock.CLOCK);
		});
	}

	@Test
	void keyResolverWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserKeyResolver.class).run(context -> {
			assertThat(context).hasSingleBean(KeyResolver.class);
			assertThat(context.getBean(KeyResolver.class)).isSameAs(context.getBean("userKeyResolver"));
		});
	}

	@Test
	void routeResolverWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserRouteResolver.class).run(context -> {
			assertThat(context).hasSingleBean(RouteResolver.class);
			assertThat(context.getBean(RouteResolver.class)).isSameAs(context.getBean("userRouteResolver"));
		});
	}

	@Test
	void responseWriterWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserResponseWriter.class).run(context -> {
			assertThat(context).hasSingleBean(RateLimitResponseWriter.class);
			assertThat(context.getBean(RateLimitResponseWriter.class)).isSameAs(context.getBean("userResponseWriter"));
		});
	}

	@Test
	void filterWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserFilter.class).run(context -> {
			assertThat(context).hasSingleBean(RateLimitFilter.class);
			assertThat(context.getBean(RateLimitFilter.class)).isSameAs(context.getBean("userFilter"));
		});
	}

	@Test
	void filterRegistrationWhenUserDefinesOneShouldBackOff() {
		runner.withUserConfiguration(UserFilterRegistration.class)
			.run(context -> assertThat(context
				.getBean(LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME, FilterRegistrationBean.class)
				.getOrder()).isEqualTo(42));
	}

	@Test
	void routeRulesWhenSeveralMatchShouldPickTheFirstByPatternAndMethod() {
		runner
			.withPropertyValues("limiter.routes[0].pattern=/s/recall", "limiter.routes[0].methods=POST",
					"limiter.routes[0].expensive=true", "limiter.routes[1].pattern=/actuator/**",
					"limiter.routes[1].exempt=true", "limiter.routes[1].reason=operations probes",
					"limiter.routes[2].pattern=/s/**", "limiter.routes[2].budget=anonymous")
			.run(context -> {
				RouteResolver routes = context.getBean(RouteResolver.class);
				assertThat(routes.resolve(new MockHttpServletRequest("POST", "/s/recall")))
					.isEqualTo(new RoutePolicy("/s/recall", null, true, false, null));
				assertThat(routes.resolve(new MockHttpServletRequest("GET", "/s/recall")))
					.isEqualTo(new RoutePolicy("/s/**", "anonymous", false, false, null));
				assertThat(routes.resolve(new MockHttpServletRequest("GET", "/actuator/health")).exempt()).isTrue();
				assertThat(routes.resolve(new MockHttpServletRequest("GET", "/other"))).isEqualTo(RoutePolicy.DEFAULT);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class UserStore {

		@Bean
		RateLimitStore userStore() {
			return RateLimitStores.inMemory(10);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserBudgets {

		@Bean
		BudgetRegistry userBudgets() {
			Budget mine = Budget.builder("mine").window("minute", 1, java.time.Duration.ofMinutes(1)).build();
			return new BudgetRegistry(List.of(mine), "mine", "mine");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserLimiterClock {

		static final Clock CLOCK = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

		@Bean(name = LimiterAutoConfiguration.CLOCK_BEAN_NAME)
		Clock limiterClock() {
			return CLOCK;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationClock {

		static final Clock CLOCK = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

		@Bean
		Clock applicationClock() {
			return CLOCK;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserKeyResolver {

		@Bean
		KeyResolver userKeyResolver() {
			return request -> CallerKey.anonymous("a:fixed");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRouteResolver {

		@Bean
		RouteResolver userRouteResolver() {
			return request -> RoutePolicy.DEFAULT;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserResponseWriter {

		@Bean
		RateLimitResponseWriter userResponseWriter() {
			return new RateLimitResponseWriter() {
				@Override
				public void writeCounters(HttpServletResponse response, dev.limiter.core.Decision decision) {
				}

				@Override
				public void writeRefusal(HttpServletRequest request, HttpServletResponse response,
						dev.limiter.core.Decision decision) {
					response.setStatus(429);
				}

				@Override
				public void writeUnavailable(HttpServletRequest request, HttpServletResponse response,
						dev.limiter.core.StoreUnavailableException failure) {
					response.setStatus(503);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserFilter {

		@Bean
		RateLimitFilter userFilter() {
			Budget only = Budget.builder("only").window("minute", 1, java.time.Duration.ofMinutes(1)).build();
			return RateLimitFilter
				.builder(
						new RateLimitRules(new BudgetRegistry(List.of(only), "only", "only"), BudgetOptions.DEFAULTS,
								request -> RoutePolicy.DEFAULT),
						RateLimitStores.inMemory(1), request -> CallerKey.anonymous("a:x"),
						new DefaultRateLimitResponseWriter(true, true))
				.budgetSelectors(List.of((HttpServletRequest r, Principal p, String b) -> Optional.empty()))
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserFilterRegistration {

		@Bean(name = LimiterServletAutoConfiguration.REGISTRATION_BEAN_NAME)
		FilterRegistrationBean<RateLimitFilter> myRegistration(RateLimitFilter filter) {
			FilterRegistrationBean<RateLimitFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setOrder(42);
			return registration;
		}

	}

}
