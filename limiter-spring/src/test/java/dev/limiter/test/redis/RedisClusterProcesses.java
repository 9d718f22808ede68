package dev.limiter.test.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real three-master Redis Cluster: three {@code redis-server} processes with {@code cluster-enabled yes},
 * joined with {@code CLUSTER MEET} and given the 16384 slots in three ranges with {@code CLUSTER ADDSLOTS}
 * (no {@code redis-cli} needed). {@link #start()} returns once every node reports {@code cluster_state:ok}.
 */
public final class RedisClusterProcesses implements AutoCloseable {

    public static final int SLOTS = 16_384;

    private final List<RedisServerProcess> nodes;

    private RedisClusterProcesses(List<RedisServerProcess> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    public static RedisClusterProcesses start() {
        List<RedisServerProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                int port = RedisServerProcess.freePort(true);
                nodes.add(RedisServerProcess.start(port, List.of(
                        "cluster-enabled yes",
                        "cluster-config-file nodes-" + port + ".conf",
                        "cluster-node-timeout 2000",
                        "cluster-require-full-coverage yes")));
            }
            RedisClusterProcesses cluster = new RedisClusterProcesses(nodes);
            cluster.assignSlotsAndMeet();
            cluster.awaitState("ok", 30);
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisServerProcess::close);
            throw e;
        }
    }

    private void assignSlotsAndMeet() {
        int per = SLOTS / nodes.size();
        for (int i = 0; i < nodes.size(); i++) {
            int from = i * per;
            int to = i == nodes.size() - 1 ? SLOTS - 1 : from + per - 1;
            List<Object> command = new ArrayList<>();
            command.add("CLUSTER");
            command.add("ADDSLOTS");
            for (int slot = from; slot <= to; slot++) {
                command.add(slot);
            }
            nodes.get(i).call(command.toArray());
            nodes.get(i).call("CLUSTER", "SET-CONFIG-EPOCH", i + 1);
        }
        RedisServerProcess first = nodes.get(0);
        for (int i = 1; i < nodes.size(); i++) {
            first.call("CLUSTER", "MEET", "127.0.0.1", nodes.get(i).port());
        }
    }

    /** Waits until every running node reports {@code cluster_state:<state>} and knows all three masters. */
    public void awaitState(String state, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean all = true;
            for (RedisServerProcess node : nodes) {
                if (!node.isRunning()) {
                    continue;
                }
                String info = (String) node.call("CLUSTER", "INFO");
                if (!info.contains("cluster_state:" + state) || !info.contains("cluster_known_nodes:" + nodes.size())
                        || !info.contains("cluster_slots_assigned:" + SLOTS)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cluster did not reach cluster_state:" + state + " in " + seconds + "s");
            }
            RedisServerProcess.sleep(50);
        }
    }

    public List<RedisServerProcess> nodes() {
        return nodes;
    }

    /** {@code host:port} of every node, for {@code spring.data.redis.cluster.nodes}. */
    public List<String> addresses() {
        return nodes.stream().map(RedisServerProcess::address).toList();
    }

    /** The node that serves {@code key}'s slot right now. */
    public RedisServerProcess nodeFor(String key) {
        long slot = (Long) nodes.get(0).call("CLUSTER", "KEYSLOT", key);
        for (RedisServerProcess node : nodes) {
            @SuppressWarnings("unchecked")
            List<List<Object>> ranges = (List<List<Object>>) node.call("CLUSTER", "SLOTS");
            for (List<Object> range : ranges) {
                long from = (Long) range.get(0);
                long to = (Long) range.get(1);
                @SuppressWarnings("unchecked")
                long port = (Long) ((List<Object>) range.get(2)).get(1);
                if (slot >= from && slot <= to && port == node.port()) {
                    return node;
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    @Override
    public void close() {
        nodes.forEach(RedisServerProcess::close);
    }
}
