package dev.limiter.routes;

import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.http.server.RequestPath;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Finds, before the {@code DispatcherServlet} runs, the handler Spring MVC will pick for
 * a request and the pattern it matched
 * ({@link HandlerMapping#BEST_MATCHING_PATTERN_ATTRIBUTE}): the application's handler
 * mappings are asked in the dispatcher's order, as Spring's
 * {@code HandlerMappingIntrospector} does. The request seen by the mappings keeps the
 * attributes they set to itself, so the lookup leaves no trace on the real request —
 * except that a handler found by a {@code RequestMappingInfoHandlerMapping} is left for
 * {@link ResolvedHandlerMapping} to hand to the dispatcher, which then does not look it
 * up a second time.
 */
class HandlerLookup {

	private final ListableBeanFactory beanFactory;

	private volatile List<HandlerMapping> mappings;

	/**
	 * Whether the dispatcher asks {@link ResolvedHandlerMapping} first, so a lookup can
	 * be handed over.
	 */
	private volatile boolean handsOver;

	HandlerLookup(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * The request as the mappings will see it, its path parsed once: the route rules may
	 * read the parsed path too
	 * ({@link PropertiesRouteResolver#match(HttpServletRequest, RequestPath)}).
	 */
	Prepared prepare(HttpServletRequest request) {
		IsolatedAttributesRequest isolated = new IsolatedAttributesRequest(request);
		return new Prepared(isolated, ServletRequestPathUtils.parseAndCache(isolated));
	}

	/**
	 * The handler and its matched pattern; {@code null} when no mapping has a handler (a
	 * 404 or a 405).
	 */
	Match find(HttpServletRequest request, Prepared prepared) {
		IsolatedAttributesRequest isolated = prepared.isolated();
		Found found = first(isolated);
		if (found == null) {
			return null;
		}
		HandlerExecutionChain chain = found.chain();
		if (handsOver && found.mapping() instanceof RequestMappingInfoHandlerMapping
				&& request.getDispatcherType() == DispatcherType.REQUEST) {
			request.setAttribute(ResolvedHandlerMapping.ATTRIBUTE, new ResolvedHandlerMapping.Resolved(
					request.getMethod(), request.getRequestURI(), chain, isolated.handlerMappingAttributes()));
		}
		Object pattern = isolated.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		Object within = isolated.getAttribute(HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE);
		if (within == null && chain.getHandler() instanceof ResourceHttpRequestHandler) {
			within = pathWithinUrlMapping(chain, isolated);
		}
		return new Match(chain.getHandler(), pattern instanceof String p ? p : null,
				within instanceof String w ? w : null);
	}

	/**
	 * The path a URL mapping's handler will look up: the mapping exposes it only when the
	 * dispatcher runs its chain, through its own interceptor, so that interceptor is run
	 * here on the isolated request (it sets request attributes and nothing else).
	 */
	private static Object pathWithinUrlMapping(HandlerExecutionChain chain, IsolatedAttributesRequest isolated) {
		for (HandlerInterceptor interceptor : chain.getInterceptorList()) {
			if (interceptor.getClass().getEnclosingClass() == AbstractUrlHandlerMapping.class) {
				try {
					interceptor.preHandle(isolated, null, chain.getHandler());
				}
				catch (Exception ex) {
					return null;
				}
			}
		}
		return isolated.getAttribute(HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE);
	}

	/**
	 * The CORS configuration Spring MVC applies to the request's handler (its
	 * {@code @CrossOrigin} combined with the {@code CorsRegistry} mappings), found as the
	 * dispatcher would find it, handing nothing over; {@code null} when there is none or
	 * no handler.
	 */
	CorsConfiguration corsConfiguration(HttpServletRequest request) {
		IsolatedAttributesRequest isolated = prepare(request).isolated();
		Found found = first(isolated);
		if (found == null) {
			return null;
		}
		for (HandlerInterceptor interceptor : found.chain().getInterceptorList()) {
			if (interceptor instanceof CorsConfigurationSource source) {
				return source.getCorsConfiguration(isolated);
			}
		}
		return (found.chain().getHandler() instanceof CorsConfigurationSource source)
				? source.getCorsConfiguration(isolated) : null;
	}

	/** The first mapping with a handler, in the dispatcher's order, and its chain. */
	private Found first(IsolatedAttributesRequest isolated) {
		for (HandlerMapping mapping : mappings()) {
			HandlerExecutionChain chain;
			try {
				chain = mapping.getHandler(isolated);
			}
			catch (Exception ex) {
				// The dispatcher would answer 405/406 here without calling a handler: no
				// handler to count by.
				return null;
			}
			if (chain != null) {
				return new Found(mapping, chain);
			}
		}
		return null;
	}

	private record Found(HandlerMapping mapping, HandlerExecutionChain chain) {
	}

	private List<HandlerMapping> mappings() {
		List<HandlerMapping> found = mappings;
		if (found == null) {
			List<HandlerMapping> all = BeanFactoryUtils
				.beansOfTypeIncludingAncestors(beanFactory, HandlerMapping.class, true, false)
				.values()
				.stream()
				.sorted(AnnotationAwareOrderComparator.INSTANCE)
				.toList();
			handsOver = all.stream().anyMatch(ResolvedHandlerMapping.class::isInstance);
			found = all.stream().filter(mapping -> !(mapping instanceof ResolvedHandlerMapping)).toList();
			mappings = found;
		}
		return found;
	}

	/**
	 * @param handler what the dispatcher will call
	 * @param pattern the pattern the mapping matched, {@code null} if it set none
	 * @param pathWithinMapping the path within that pattern (what a resource handler
	 * looks up), {@code null} if the mapping set none
	 */
	record Match(Object handler, String pattern, String pathWithinMapping) {
	}

	/**
	 * One request as the mappings see it, and its path as they parsed it.
	 *
	 * @param isolated the request whose attributes the mappings write to
	 * @param path the path Spring MVC's mappings match
	 */
	record Prepared(IsolatedAttributesRequest isolated, RequestPath path) {
	}

	/**
	 * Reads fall through to the real request; writes and removals stay in this wrapper.
	 * Its maps are made on the first write or removal: the mappings read far more often
	 * than they write, and this wrapper is made on every request.
	 */
	private static final class IsolatedAttributesRequest extends HttpServletRequestWrapper {

		private static final String HANDLER_MAPPING_ATTRIBUTES = HandlerMapping.class.getName() + ".";

		private Map<String, Object> written;

		private Set<String> removed;

		IsolatedAttributesRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public Object getAttribute(String name) {
			if (written != null) {
				Object value = written.get(name);
				if (value != null) {
					return value;
				}
			}
			return (removed != null && removed.contains(name)) ? null : super.getAttribute(name);
		}

		@Override
		public void setAttribute(String name, Object value) {
			if (value == null) {
				removeAttribute(name);
				return;
			}
			if (written == null) {
				written = new HashMap<>();
			}
			written.put(name, value);
			if (removed != null) {
				removed.remove(name);
			}
		}

		@Override
		public void removeAttribute(String name) {
			if (written != null) {
				written.remove(name);
			}
			if (removed == null) {
				removed = new HashSet<>();
			}
			removed.add(name);
		}

		/**
		 * What the mapping left on the request for the handler: the
		 * {@link HandlerMapping} attributes.
		 */
		Map<String, Object> handlerMappingAttributes() {
			Map<String, Object> attributes = new HashMap<>();
			if (written != null) {
				written.forEach((name, value) -> {
					if (name.startsWith(HANDLER_MAPPING_ATTRIBUTES)) {
						attributes.put(name, value);
					}
				});
			}
			return attributes;
		}

		@Override
		public Enumeration<String> getAttributeNames() {
			Set<String> names = new LinkedHashSet<>(Collections.list(super.getAttributeNames()));
			if (removed != null) {
				names.removeAll(removed);
			}
			if (written != null) {
				names.addAll(written.keySet());
			}
			return Collections.enumeration(names);
		}

	}

}
