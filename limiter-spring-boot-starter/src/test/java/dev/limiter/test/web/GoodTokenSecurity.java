package dev.limiter.test.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Stateless Spring Security for a test application:
 * {@code Authorization: Bearer good-<name>} authenticates as {@code <name>}, with the
 * token as its credential; any other header leaves the request unauthenticated.
 */
@Configuration(proxyBeanMethods = false)
public class GoodTokenSecurity {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		return http.csrf(csrf -> csrf.disable())
			.sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
			.addFilterBefore(new GoodTokenFilter(), AnonymousAuthenticationFilter.class)
			.build();
	}

	static final class GoodTokenFilter extends OncePerRequestFilter {

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			String header = request.getHeader("Authorization");
			if (header != null && header.startsWith("Bearer good-")) {
				String name = header.substring("Bearer good-".length());
				SecurityContextHolder.getContext()
					.setAuthentication(new TokenCredentialAuthentication(name, header.substring("Bearer ".length())));
			}
			chain.doFilter(request, response);
		}

	}

}
