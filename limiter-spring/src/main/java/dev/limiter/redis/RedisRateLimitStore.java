package dev.limiter.redis;

import dev.limiter.core.BoundVerdict;
import dev.limiter.core.Budget;
import dev.limiter.core.ConcurrencyBound;
import dev.limiter.core.Decision;
import dev.limiter.core.KeyState;
import dev.limiter.core.Lease;
import dev.limiter.core.RateLimitStore;
import dev.limiter.core.RateLimitStoreException;
import dev.limiter.core.RequestStoreTime;
import dev.limiter.core.guard.AuthGuardPolicy;
import dev.limiter.core.guard.AuthGuardStore;
import dev.limiter.core.guard.AuthGuardStoreProvider;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counters in Redis, exact across every instance that shares it (docs/redis.md, ADR 0002). One decision is one round trip:
 * {@code take.lua}, sent as EVALSHA (EVAL when the server answers NOSCRIPT), checks every window and the
 * concurrency bound and counts atomically; a peek is the same script in dry-run mode. {@link TakeScriptCodec}
 * turns the script's numbers into {@link BoundVerdict}s and {@link Decision#of} decides admission and
 * retry-after, as for every store.
 *
 * <p>The local memory of keys over a limit, which spares a refusal loop its round trips, is not here: wrap this
 * store in a {@link dev.limiter.core.OverLimitRememberingStore}, as the auto-configuration does.
 *
 * <p>Works with Redis standalone, Sentinel and Cluster through any spring-data-redis
 * {@link RedisConnectionFactory}; releases are fire-and-forget on a shared Lettuce connection.
 */
public final class RedisRateLimitStore implements RateLimitStore, AuthGuardStoreProvider {

    private static final Log logger = LogFactory.getLog(RedisRateLimitStore.class);

    /** How long a key outlives its window by default: covers clock skew between instances. */
    public static final Duration DEFAULT_EXPIRY_MARGIN = Duration.ofSeconds(2);

    private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(
            "io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands", RedisRateLimitStore.class.getClassLoader());

    private static final RedisScript<List> TAKE = script("take.lua");

    /** The authentication guard's steps, one round trip each ({@link RedisAuthGuardStore}). */
    static final RedisScript<List> GUARD = script("guard.lua");

    private final RedisConnectionFactory connectionFactory;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final long expiryMarginMillis;
    private final long timeoutNanos;
    private final Duration timeout;
    /** The shared Lettuce connection's asynchronous commands, obtained off the request path. */
    private volatile CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands;
    /** Runs calls that have no asynchronous API (other drivers, reset) so that a timeout can abandon them. */
    private final ThreadPoolExecutor blockingCalls;
    private final String leaseIdPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
    private final AtomicLong leaseSequence = new AtomicLong();

    private RedisRateLimitStore(Builder builder) {
        this.connectionFactory = builder.connectionFactory;
        this.redis = new StringRedisTemplate(builder.connectionFactory);
        this.keys = new RedisKeys(builder.keyPrefix);
        this.expiryMarginMillis = builder.expiryMargin.toMillis();
        this.timeout = builder.timeout;
        this.timeoutNanos = builder.timeout.toNanos();
        AtomicInteger threads = new AtomicInteger();
        this.blockingCalls = new ThreadPoolExecutor(0, builder.maxBlockingCalls, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "limiter-redis-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        if (sharesLettuceConnection()) {
            // Connect now, so that the first decision does not pay for it; a Redis that is down does not hold
            // start-up for longer than one timeout (the first decisions then go to the fallback).
            try {
                await(asyncCommands(), System.nanoTime() + timeoutNanos);
            } catch (RateLimitStoreException notYet) {
                logger.debug("Redis store not connected at start-up; it keeps trying on demand", notYet);
            }
        }
    }

    public static Builder builder(RedisConnectionFactory connectionFactory) {
        return new Builder(connectionFactory);
    }

    @Override
    public Decision take(Budget budget, String key, long cost, boolean expensive, long nowMillis) {
        budget.checkCost(cost);
        ConcurrencyBound bound = expensive ? budget.concurrency().orElse(null) : null;
        String leaseId = bound != null ? nextLeaseId() : "";
        TakeScriptCodec.Call call = TakeScriptCodec.encode(budget, cost, bound, leaseId, expiryMarginMillis, nowMillis);
        TakeScriptCodec.Reply reply = call.decode(execute(TAKE, keys.all(budget, key), call.args()));
        Lease lease = reply.admitted() && bound != null
                ? new Lease(budget.name(), key, leaseId, nowMillis + bound.leaseMillis()) : null;
        return Decision.of(budget.name(), nowMillis, reply.verdicts(), lease);
    }

    @Override
    public void release(Lease lease, long nowMillis) {
        byte[] leasesKey = keys.leases(lease.budget(), lease.key()).getBytes(StandardCharsets.UTF_8);
        byte[] member = lease.id().getBytes(StandardCharsets.UTF_8);
        try {
            if (sharesLettuceConnection()) {
                redis.execute((RedisCallback<Void>) connection -> {
                    zremWithoutWaiting(connection.getNativeConnection(), leasesKey, member);
                    return null;
                });
            } else {
                CompletableFuture.runAsync(() -> redis.execute((RedisCallback<Long>) connection ->
                        connection.zSetCommands().zRem(leasesKey, member))).exceptionally(this::releaseFailed);
            }
        } catch (RuntimeException e) {
            releaseFailed(e);
        }
    }

    @Override
    public KeyState peek(Budget budget, String key, long nowMillis) {
        TakeScriptCodec.Call dryRun = TakeScriptCodec.encodeDryRun(budget, nowMillis);
        return new KeyState(budget.name(), key,
                dryRun.decode(execute(TAKE, keys.all(budget, key), dryRun.args())).verdicts());
    }

    @Override
    public void reset(Budget budget, String key) {
        List<String> names = keys.all(budget, key);
        long start = System.nanoTime();
        try {
            withinTimeout(() -> redis.delete(names), requestDeadline(start));
        } finally {
            RequestStoreTime.spend(System.nanoTime() - start);
        }
    }

    @Override
    public String name() {
        return "redis";
    }

    /** The guard's store on this store's connection, keys and timeout: one round trip per guard step. */
    @Override
    public AuthGuardStore authGuardStore(AuthGuardPolicy policy) {
        return new RedisAuthGuardStore(this, keys, policy, expiryMarginMillis);
    }

    /** The prefix every key of this store starts with. */
    public String keyPrefix() {
        return keys.prefix();
    }

    /**
     * How long one request may wait for this store in total, over all its calls (see {@link RequestStoreTime});
     * outside a request, how long one call may take before it fails with a {@link RateLimitStoreException}.
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Runs a script within {@link #timeout()}, whatever the connection factory's own timeouts say. On the shared
     * Lettuce connection the script is sent on the asynchronous API and awaited, with no extra thread; other
     * drivers run on a small pool that the timeout can abandon.
     */
    @SuppressWarnings("unchecked")
    List<Object> execute(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
        long start = System.nanoTime();
        long deadline = requestDeadline(start);
        List<Object> raw;
        try {
            if (sharesLettuceConnection()) {
                raw = evalAsync(script, scriptKeys, args, deadline);
            } else {
                raw = withinTimeout(() -> redis.execute(script, scriptKeys, args), deadline);
            }
        } finally {
            RequestStoreTime.spend(System.nanoTime() - start);
        }
        if (raw == null) {
            throw new RateLimitStoreException("Redis store got no answer from its script");
        }
        return raw;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<Object> evalAsync(RedisScript<List> script, List<String> scriptKeys, Object[] args, long deadline) {
        RedisClusterAsyncCommands<byte[], byte[]> commands = await(asyncCommands(), deadline);
        byte[][] keyBytes = new byte[scriptKeys.size()][];
        for (int i = 0; i < keyBytes.length; i++) {
            keyBytes[i] = scriptKeys.get(i).getBytes(StandardCharsets.UTF_8);
        }
        byte[][] argBytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argBytes[i] = String.valueOf(args[i]).getBytes(StandardCharsets.UTF_8);
        }
        try {
            return (List<Object>) await((Future) commands.evalsha(script.getSha1(), ScriptOutputType.MULTI,
                    keyBytes, argBytes), deadline);
        } catch (RateLimitStoreException e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw e;
            }
            // EVAL loads the script into the server's cache, so the next call's EVALSHA finds it.
            return (List<Object>) await((Future) commands.eval(script.getScriptAsString()
                    .getBytes(StandardCharsets.UTF_8), ScriptOutputType.MULTI, keyBytes, argBytes), deadline);
        }
    }

    /**
     * The shared connection's asynchronous commands. Obtaining them may connect, which can block for the
     * driver's connect timeout; that happens on the pool, so a caller waits at most its own deadline.
     */
    @SuppressWarnings("unchecked")
    private CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> asyncCommands() {
        CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> current = asyncCommands;
        if (current == null || current.isCompletedExceptionally()) {
            synchronized (this) {
                current = asyncCommands;
                if (current == null || current.isCompletedExceptionally()) {
                    current = new CompletableFuture<>();
                    CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connecting = current;
                    try {
                        blockingCalls.execute(() -> {
                            try {
                                RedisClusterAsyncCommands<byte[], byte[]> commands =
                                        (RedisClusterAsyncCommands<byte[], byte[]>) redis.execute(
                                                (RedisCallback<Object>) connection -> connection.getNativeConnection());
                                loadScripts(commands);
                                connecting.complete(commands);
                            } catch (Throwable failure) {
                                connecting.completeExceptionally(failure);
                            }
                        });
                    } catch (RuntimeException rejected) {
                        connecting.completeExceptionally(rejected);
                    }
                    asyncCommands = current;
                }
            }
        }
        return current;
    }

    /**
     * Loads the scripts while connecting, so that the first decision's EVALSHA finds them. On a Cluster the
     * command goes to every master. A failure here is harmless: EVALSHA falls back to EVAL on NOSCRIPT.
     */
    private void loadScripts(RedisClusterAsyncCommands<byte[], byte[]> commands) {
        try {
            for (RedisScript<List> script : List.of(TAKE, GUARD)) {
                commands.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8))
                        .get(Math.max(timeoutNanos, TimeUnit.SECONDS.toNanos(5)), TimeUnit.NANOSECONDS);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            logger.debug("Redis store could not preload its scripts; EVALSHA will load them on first use", e);
        }
    }

    /**
     * The end of this call's wait: one timeout per request, so a call gets what earlier calls of the same request
     * left. A request that has used it all fails at once, and the breaker counts that like any timeout: a store
     * slower than the timeout per request degrades even when each call alone is faster.
     */
    private long requestDeadline(long start) {
        long left = timeoutNanos - RequestStoreTime.spentNanos();
        if (left <= 0) {
            throw new RateLimitStoreException("Redis store: this request already waited " + timeout.toMillis()
                    + "ms for it");
        }
        return start + left;
    }

    private <T> T withinTimeout(Supplier<T> call, long deadline) {
        CompletableFuture<T> future;
        try {
            future = CompletableFuture.supplyAsync(call, blockingCalls);
        } catch (RuntimeException rejected) {
            throw new RateLimitStoreException("Redis store is saturated: " + blockingCalls.getMaximumPoolSize()
                    + " calls already waiting", rejected);
        }
        return await(future, deadline);
    }

    private <T> T await(Future<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new RateLimitStoreException("Redis store did not answer within " + timeout.toMillis() + "ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RateLimitStoreException("interrupted while waiting for the Redis store", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new RateLimitStoreException("Redis store failed: " + cause.getMessage(), cause);
        }
    }

    private boolean sharesLettuceConnection() {
        return LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce
                && lettuce.getShareNativeConnection();
    }

    /**
     * Sends ZREM on the shared Lettuce connection and returns at once. Commands on one connection run in the
     * order they were written, so a decision this thread asks for next already sees the slot free.
     */
    @SuppressWarnings("unchecked")
    private void zremWithoutWaiting(Object nativeConnection, byte[] leasesKey, byte[] member) {
        if (nativeConnection instanceof RedisClusterAsyncCommands<?, ?> async) {
            ((RedisClusterAsyncCommands<byte[], byte[]>) async).zrem(leasesKey, member)
                    .exceptionally(this::releaseFailed);
        } else {
            throw new IllegalStateException("not a Lettuce connection: " + nativeConnection);
        }
    }

    private <T> T releaseFailed(Throwable failure) {
        // The lease still expires by itself; a lost release only holds a slot until then.
        if (logger.isDebugEnabled()) {
            logger.debug("Redis store could not release a lease; it will expire by itself", failure);
        }
        return null;
    }

    /**
     * Sends a script and returns at once, off the response path; like a release, a lost call only leaves what
     * expires by itself. Commands on one connection run in the order they were written.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void executeWithoutWaiting(RedisScript<List> script, List<String> scriptKeys, Object[] args) {
        try {
            CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>> connection =
                    sharesLettuceConnection() ? asyncCommands() : null;
            if (connection != null && connection.isDone() && !connection.isCompletedExceptionally()) {
                RedisClusterAsyncCommands<byte[], byte[]> commands = connection.join();
                byte[][] keyBytes = new byte[scriptKeys.size()][];
                for (int i = 0; i < keyBytes.length; i++) {
                    keyBytes[i] = scriptKeys.get(i).getBytes(StandardCharsets.UTF_8);
                }
                byte[][] argBytes = new byte[args.length][];
                for (int i = 0; i < args.length; i++) {
                    argBytes[i] = String.valueOf(args[i]).getBytes(StandardCharsets.UTF_8);
                }
                commands.evalsha(script.getSha1(), ScriptOutputType.MULTI, keyBytes, argBytes)
                        .exceptionally(failure -> {
                            if (failure instanceof RedisNoScriptException
                                    || failure.getCause() instanceof RedisNoScriptException) {
                                commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
                                        ScriptOutputType.MULTI, keyBytes, argBytes).exceptionally(this::releaseFailed);
                                return null;
                            }
                            return releaseFailed(failure);
                        });
            } else {
                CompletableFuture.runAsync(() -> redis.execute(script, scriptKeys, args), blockingCalls)
                        .exceptionally(this::releaseFailed);
            }
        } catch (RuntimeException e) {
            releaseFailed(e);
        }
    }

    String nextLeaseId() {
        return leaseIdPrefix + Long.toHexString(leaseSequence.incrementAndGet());
    }

    /**
     * Reads the script once, with this class's own class loader: a resource resolved later through a thread's
     * context class loader may belong to a web application that has since been stopped.
     */
    private static RedisScript<List> script(String name) {
        try (var in = RedisRateLimitStore.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script dev/limiter/redis/" + name);
            }
            return RedisScript.of(new String(in.readAllBytes(), StandardCharsets.UTF_8), List.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read script dev/limiter/redis/" + name, e);
        }
    }

    /** Options of a {@link RedisRateLimitStore}. */
    public static final class Builder {

        private final RedisConnectionFactory connectionFactory;
        private String keyPrefix = "limiter";
        private Duration expiryMargin = DEFAULT_EXPIRY_MARGIN;
        private Duration timeout = Duration.ofSeconds(1);
        private int maxBlockingCalls = 64;

        private Builder(RedisConnectionFactory connectionFactory) {
            this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        }

        /** The first segment of every key, {@code limiter} by default. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** How long keys outlive their window's reset, to absorb clock skew between instances. */
        public Builder expiryMargin(Duration expiryMargin) {
            if (expiryMargin.isNegative()) {
                throw new IllegalArgumentException("expiry margin must not be negative, was " + expiryMargin);
            }
            this.expiryMargin = expiryMargin;
            return this;
        }

        /** How long one call may take, enforced by the store whatever the driver's own timeouts are. */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /** Calls without an asynchronous API that may wait at once; more fail at once as saturated. */
        public Builder maxBlockingCalls(int maxBlockingCalls) {
            if (maxBlockingCalls < 1) {
                throw new IllegalArgumentException("max blocking calls must be at least 1, was " + maxBlockingCalls);
            }
            this.maxBlockingCalls = maxBlockingCalls;
            return this;
        }

        public RedisRateLimitStore build() {
            return new RedisRateLimitStore(this);
        }
    }
}
