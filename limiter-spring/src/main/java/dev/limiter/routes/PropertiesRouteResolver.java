package dev.limiter.routes;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.UrlPathHelper;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/** Route rules in declaration order; the first whose pattern and method match wins. */
public class PropertiesRouteResolver implements RouteResolver {

	private final List<Rule> rules;

	public PropertiesRouteResolver(List<RouteRule> rules) {
		this.rules = rules.stream().map(Rule::new).toList();
	}

	@Override
	public RoutePolicy resolve(HttpServletRequest request) {
		RoutePolicy matched = match(request);
		return matched != null ? matched : RoutePolicy.DEFAULT;
	}

	/** The policy of the first rule that matches, {@code null} when none does. */
	public RoutePolicy match(HttpServletRequest request) {
		if (rules.isEmpty()) {
			return null;
		}
		PathContainer path = PathContainer.parsePath(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
		String method = request.getMethod();
		for (Rule rule : rules) {
			if (rule.matches(path, method)) {
				return rule.policy;
			}
		}
		return null;
	}

	/** The rules in declaration order. */
	public List<RouteRule> rules() {
		return rules.stream().map(rule -> rule.source).toList();
	}

	/**
	 * One configured rule.
	 *
	 * @param pattern a Spring {@link PathPattern}
	 * @param methods HTTP methods, empty for all
	 * @param policy what applies to matching requests
	 */
	public record RouteRule(String pattern, List<String> methods, RoutePolicy policy) {
	}

	private static final class Rule {

		private final PathPattern pattern;

		private final Set<String> methods;

		private final RoutePolicy policy;

		private final RouteRule source;

		Rule(RouteRule rule) {
			this.source = rule;
			this.pattern = PathPatternParser.defaultInstance.parse(rule.pattern());
			this.methods = rule.methods().stream().map(m -> m.toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
			this.policy = rule.policy();
		}

		boolean matches(PathContainer path, String method) {
			return (methods.isEmpty() || methods.contains(method.toUpperCase(Locale.ROOT))) && pattern.matches(path);
		}

	}

}
