package dev.limiter.routes;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
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
		return match(request, null);
	}

	/**
	 * The policy of the first rule that matches, {@code null} when none does.
	 * @param parsed the request's path as Spring MVC's handler mappings parsed it
	 * ({@code ServletRequestPathUtils}), {@code null} if they have not
	 */
	public RoutePolicy match(HttpServletRequest request, RequestPath parsed) {
		if (rules.isEmpty()) {
			return null;
		}
		return matchPath(pathWithinApplication(request, parsed), request.getMethod());
	}

	/**
	 * The policy of the first rule that matches a request of {@code method} to
	 * {@code path} (the path within the application, as any web stack parsed it),
	 * {@code null} when none does.
	 */
	public RoutePolicy matchPath(PathContainer path, String method) {
		if (rules.isEmpty()) {
			return null;
		}
		for (Rule rule : rules) {
			if (rule.matches(path, method)) {
				return rule.policy;
			}
		}
		return null;
	}

	/**
	 * The path the rules match: {@link UrlPathHelper}'s path within the application
	 * (decoded, {@code ;} content removed, {@code //} merged), so that no spelling of a
	 * path gets past its rule. The mappings' own parse of the raw path is that same path
	 * when the raw path has nothing to decode, remove or merge and the mappings' path is
	 * the whole path within the application (the dispatcher is not mapped to a prefix
	 * such as {@code /api/*}); it is used then rather than parsing the path a second
	 * time.
	 */
	static PathContainer pathWithinApplication(HttpServletRequest request, RequestPath parsed) {
		if (parsed != null && request.getDispatcherType() == DispatcherType.REQUEST) {
			String uri = request.getRequestURI();
			PathContainer within = parsed.pathWithinApplication();
			String value = within.value();
			if (!value.isEmpty() && uri.length() == request.getContextPath().length() + value.length()
					&& uri.endsWith(value) && isPlain(uri)) {
				return within;
			}
		}
		return PathContainer.parsePath(UrlPathHelper.defaultInstance.getPathWithinApplication(request));
	}

	/** Whether UrlPathHelper would leave the raw path as it is. */
	private static boolean isPlain(String uri) {
		for (int i = 0; i < uri.length(); i++) {
			char c = uri.charAt(i);
			if (c == '%' || c == ';' || (c == '/' && i + 1 < uri.length() && uri.charAt(i + 1) == '/')) {
				return false;
			}
		}
		return true;
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
	 * @param source where the rule was written (the kind of its property source)
	 */
	public record RouteRule(String pattern, List<String> methods, RoutePolicy policy, RouteSource source) {

		/** A rule whose property source is not known. */
		public RouteRule(String pattern, List<String> methods, RoutePolicy policy) {
			this(pattern, methods, policy, RouteSource.RULE);
		}

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
