package dev.limiter.servlet;

import java.io.IOException;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.limiter.core.Budget;
import dev.limiter.core.Decision;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.StoreUnavailableException;
import dev.limiter.spring.BudgetOptions;
import dev.limiter.spring.BudgetRegistry;
import dev.limiter.spring.BudgetSelector;
import dev.limiter.spring.CallerKey;
import dev.limiter.spring.KeyResolver;
import dev.limiter.spring.RateLimitObserver;
import dev.limiter.spring.RateLimitOutcome;
import dev.limiter.spring.RateLimitResponseWriter;
import dev.limiter.spring.RoutePolicy;
import dev.limiter.spring.RouteResolver;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts every request that is not exempt against its budget and key, refuses it with the response writer's
 * 429 when a bound is spent (the handler is not called), and otherwise adds the counter headers just before the
 * response commits unless the application marked the response cacheable by a shared cache. An expensive
 * request's lease is handed back when the request completes: synchronously, asynchronously or by an exception.
 *
 * <p>A budget in shadow mode is decided and counted the same way, but a refused request goes on to the handler
 * and its response says {@code X-RateLimit-Shadow: refused}. Every decision is reported to the
 * {@link RateLimitObserver}s (meters, endpoint totals).
 */
public class RateLimitFilter extends OncePerRequestFilter {

    private static final Log logger = LogFactory.getLog(RateLimitFilter.class);

    private static final String RESPONSE_ATTRIBUTE = RateLimitFilter.class.getName() + ".RESPONSE";

    /** Says on an admitted response that its request would have been refused, were the budget enforced. */
    public static final String SHADOW_HEADER = "X-RateLimit-Shadow";

    private final BudgetRegistry budgets;
    private final RateLimitStore store;
    private final Clock clock;
    private final KeyResolver keyResolver;
    private final RouteResolver routeResolver;
    private final List<BudgetSelector> budgetSelectors;
    private final RateLimitResponseWriter responseWriter;
    private final BudgetOptions options;
    private final List<RateLimitObserver> observers;
    private final ShadowRefusalLog shadowLog = new ShadowRefusalLog();
    private final AtomicBoolean storeFailing = new AtomicBoolean();

    public RateLimitFilter(BudgetRegistry budgets, RateLimitStore store, Clock clock, KeyResolver keyResolver,
                           RouteResolver routeResolver, List<BudgetSelector> budgetSelectors,
                           RateLimitResponseWriter responseWriter) {
        this(budgets, store, clock, keyResolver, routeResolver, budgetSelectors, responseWriter,
                BudgetOptions.DEFAULTS, List.of());
    }

    public RateLimitFilter(BudgetRegistry budgets, RateLimitStore store, Clock clock, KeyResolver keyResolver,
                           RouteResolver routeResolver, List<BudgetSelector> budgetSelectors,
                           RateLimitResponseWriter responseWriter, BudgetOptions options,
                           List<RateLimitObserver> observers) {
        this.budgets = budgets;
        this.store = store;
        this.clock = clock;
        this.keyResolver = keyResolver;
        this.routeResolver = routeResolver;
        this.budgetSelectors = List.copyOf(budgetSelectors);
        this.responseWriter = responseWriter;
        this.options = options;
        this.observers = List.copyOf(observers);
    }

    /** The async dispatch is not counted again, but it may be the one that commits the response. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // One store timeout for the whole request, shared with the authentication guard's calls if it ran first.
        try (RequestStoreTime.Scope storeTime = RequestStoreTime.open()) {
            filter(request, response, chain);
        }
    }

    private void filter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isAsyncDispatch(request)) {
            continueAsyncDispatch(request, response, chain);
            return;
        }
        RoutePolicy route = routeResolver.resolve(request);
        if (route.exempt()) {
            for (RateLimitObserver observer : observers) {
                try {
                    observer.onExempt(route);
                }
                catch (RuntimeException ex) {
                    logger.warn("RateLimitObserver " + observer.getClass().getName() + " failed: " + ex);
                }
            }
            chain.doFilter(request, response);
            return;
        }
        CallerKey caller = keyResolver.resolve(request);
        Budget budget = budgetFor(request, route, caller);
        Decision decision;
        long started = System.nanoTime();
        try {
            decision = take(budget, RouteScopedKeys.counterKey(caller, route, options, budget.name()),
                    route.expensive());
        }
        catch (StoreUnavailableException unavailable) {
            responseWriter.writeUnavailable(request, response, unavailable);
            return;
        }
        if (decision == null) {
            chain.doFilter(request, response);
            return;
        }
        boolean shadowRefused = !decision.allowed() && options.shadow(budget.name());
        observe(route, decision, shadowRefused, System.nanoTime() - started);
        if (!decision.allowed() && !shadowRefused) {
            responseWriter.writeRefusal(request, response, decision);
            return;
        }
        if (shadowRefused) {
            shadowLog.refused(decision, route);
        }
        LeaseRelease release = decision.lease().map(LeaseRelease::new).orElse(null);
        CommitHookResponseWrapper wrapped = new CommitHookResponseWrapper(response,
                () -> writeCountersUnlessCacheable(request, response, decision, shadowRefused));
        request.setAttribute(RESPONSE_ATTRIBUTE, wrapped);
        try {
            chain.doFilter(request, wrapped);
        }
        finally {
            boolean async = false;
            try {
                async = request.isAsyncStarted();
                if (async && release != null) {
                    request.getAsyncContext().addListener(release);
                }
                if (!async) {
                    wrapped.runHookIfNotCommitted();
                }
            }
            finally {
                // the lease comes back even when the response writer throws while the counters are written
                if (release != null && !async) {
                    release.run();
                }
            }
        }
    }

    private void continueAsyncDispatch(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object wrapped = request.getAttribute(RESPONSE_ATTRIBUTE);
        try {
            chain.doFilter(request, response);
        }
        finally {
            if (wrapped instanceof CommitHookResponseWrapper hooked && !request.isAsyncStarted()) {
                hooked.runHookIfNotCommitted();
            }
        }
    }

    private Budget budgetFor(HttpServletRequest request, RoutePolicy route, CallerKey caller) {
        if (!caller.authenticated()) {
            return budgets.anonymousBudget();
        }
        Budget routeBudget = budgets.find(route.budget()).orElseGet(budgets::defaultBudget);
        for (BudgetSelector selector : budgetSelectors) {
            Optional<String> selected = selector.select(request, caller.principal(), routeBudget.name());
            if (selected.isPresent()) {
                Optional<Budget> budget = budgets.find(selected.get());
                if (budget.isPresent()) {
                    return budget.get();
                }
                logger.warn("BudgetSelector " + selector.getClass().getName() + " chose unknown budget '"
                        + selected.get() + "'; using '" + routeBudget.name() + "'");
            }
        }
        return routeBudget;
    }

    private void observe(RoutePolicy route, Decision decision, boolean shadowRefused, long storeNanos) {
        RateLimitOutcome outcome = decision.allowed() ? RateLimitOutcome.ALLOWED
                : shadowRefused ? RateLimitOutcome.SHADOW_REFUSED : RateLimitOutcome.REFUSED;
        for (RateLimitObserver observer : observers) {
            try {
                observer.onDecision(route, decision, outcome, storeNanos);
            }
            catch (RuntimeException ex) {
                logger.warn("RateLimitObserver " + observer.getClass().getName() + " failed: " + ex);
            }
        }
    }

    private Decision take(Budget budget, String key, boolean expensive) {
        try {
            Decision decision = store.take(budget, key, 1, expensive, clock.millis());
            if (storeFailing.compareAndSet(true, false)) {
                logger.warn("Rate-limit store '" + store.name() + "' answers again; requests are counted");
            }
            return decision;
        }
        catch (StoreUnavailableException unavailable) {
            throw unavailable;
        }
        catch (RuntimeException ex) {
            // No fallback is configured here: admit uncounted rather than fail the request, and say so once.
            if (storeFailing.compareAndSet(false, true)) {
                logger.warn("Rate-limit store '" + store.name() + "' failed; admitting requests uncounted until it "
                        + "answers again: " + ex);
            }
            return null;
        }
    }

    private void writeCountersUnlessCacheable(HttpServletRequest request, HttpServletResponse response,
                                              Decision decision, boolean shadowRefused) {
        if (!isSharedCacheable(request, response)) {
            try {
                responseWriter.writeCounters(response, decision);
            }
            catch (RuntimeException ex) {
                // the application's response is whole without counters; a 500 over it would be worse
                logger.warn("RateLimitResponseWriter " + responseWriter.getClass().getName()
                        + " failed to write the counters: " + ex);
            }
            if (shadowRefused) {
                response.setHeader(SHADOW_HEADER, "refused");
            }
        }
    }

    /**
     * Whether a shared cache may store the response (RFC 9111 section 3 and 3.5): then it may serve it to other
     * callers, and per-caller counters would leak to them. {@code CDN-Cache-Control} (RFC 9213) and
     * {@code Surrogate-Control} address the CDN directly and count unless they say {@code no-store} or
     * {@code private}. Otherwise {@code no-store} and {@code private} forbid it; {@code public} and
     * {@code s-maxage} allow it; a request with {@code Authorization} may also be stored under
     * {@code must-revalidate}, and one without under {@code max-age} or an {@code Expires} header.
     */
    static boolean isSharedCacheable(HttpServletRequest request, HttpServletResponse response) {
        for (String targeted : List.of("CDN-Cache-Control", "Surrogate-Control")) {
            Set<String> directives = directives(response, targeted);
            if (!directives.isEmpty() && !directives.contains("no-store") && !directives.contains("private")) {
                return true;
            }
        }
        Set<String> cacheControl = directives(response, "Cache-Control");
        if (cacheControl.contains("no-store") || cacheControl.contains("private")) {
            return false;
        }
        if (cacheControl.contains("public") || cacheControl.contains("s-maxage")) {
            return true;
        }
        if (request.getHeader("Authorization") != null) {
            return cacheControl.contains("must-revalidate");
        }
        return cacheControl.contains("max-age") || response.getHeader("Expires") != null;
    }

    private static Set<String> directives(HttpServletResponse response, String header) {
        Set<String> names = new HashSet<>();
        for (String value : response.getHeaders(header)) {
            for (String directive : value.split(",")) {
                String name = directive.trim().toLowerCase(Locale.ROOT);
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    name = name.substring(0, eq).trim();
                }
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** Hands a lease back exactly once, whichever way the request ends. */
    private final class LeaseRelease implements AsyncListener, Runnable {

        private final Lease lease;
        private final AtomicBoolean released = new AtomicBoolean();

        LeaseRelease(Lease lease) {
            this.lease = lease;
        }

        @Override
        public void run() {
            if (released.compareAndSet(false, true)) {
                try {
                    store.release(lease, clock.millis());
                }
                catch (RuntimeException ex) {
                    logger.warn("Could not release a lease of budget '" + lease.budget() + "' on store '"
                            + store.name() + "'; it expires by itself: " + ex);
                }
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
            run();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            run();
        }

        @Override
        public void onError(AsyncEvent event) {
            run();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }
    }
}
