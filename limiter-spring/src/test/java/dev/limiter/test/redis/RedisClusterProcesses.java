package dev.limiter.test.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * A real three-master Redis Cluster: three {@code redis-server} processes with
 * {@code cluster-enabled yes}, joined with {@code CLUSTER MEET} and given the 16384 slots
 * in three ranges with {@code CLUSTER ADDSLOTS} (no {@code redis-cli} needed).
 * {@link #start()} returns once every node reports {@code cluster_state:ok}.
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
				nodes.add(RedisServerProcess.start(port,
						List.of("cluster-enabled yes", "cluster-config-file nodes-" + port + ".conf",
								"cluster-node-timeout 2000", "cluster-require-full-coverage yes")));
			}
			RedisClusterProcesses cluster = new RedisClusterProcesses(nodes);
			cluster.assignSlotsAndMeet();
			cluster.awaitState("ok", 30);
			return cluster;
		}
		catch (RuntimeException e) {
			nodes.forEach(RedisServerProcess::close);
			throw e;
		}
	}

	/**
	 * Three masters and three replicas ({@code CLUSTER REPLICATE}, one per master), with
	 * a short {@code cluster-node-timeout} so that a replica is promoted a few seconds
	 * after its master dies. Returns once every node reports {@code cluster_state:ok} and
	 * every replica is in sync with its master.
	 */
	public static RedisClusterProcesses startWithReplicas(int nodeTimeoutMillis) {
		List<RedisServerProcess> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < 6; i++) {
				int port = RedisServerProcess.freePort(true);
				nodes.add(RedisServerProcess.start(port,
						List.of("cluster-enabled yes", "cluster-config-file nodes-" + port + ".conf",
								"cluster-node-timeout " + nodeTimeoutMillis, "cluster-require-full-coverage yes")));
			}
			RedisClusterProcesses cluster = new RedisClusterProcesses(nodes);
			cluster.assignSlotsAndMeet(3);
			cluster.awaitState("ok", 30);
			for (int i = 0; i < 3; i++) {
				String masterId = (String) nodes.get(i).call("CLUSTER", "MYID");
				cluster.replicate(nodes.get(3 + i), masterId, 30);
			}
			for (int i = 0; i < 3; i++) {
				cluster.awaitInSync(nodes.get(3 + i), 30);
			}
			cluster.awaitState("ok", 30);
			return cluster;
		}
		catch (RuntimeException e) {
			nodes.forEach(RedisServerProcess::close);
			throw e;
		}
	}

	/**
	 * Makes {@code replica} replicate the master {@code masterId}, once the gossip has
	 * told it about that master.
	 */
	private void replicate(RedisServerProcess replica, String masterId, int seconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (true) {
			try {
				replica.call("CLUSTER", "REPLICATE", masterId);
				return;
			}
			catch (RedisCommandExecutionException e) {
				if (System.nanoTime() > deadline) {
					throw e;
				}
				RedisServerProcess.sleep(50);
			}
		}
	}

	private static void awaitInSync(RedisServerProcess replica, int seconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (!"up".equals(replica.info("replication").get("master_link_status"))) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(
						"replica on port " + replica.port() + " did not sync in " + seconds + "s");
			}
			RedisServerProcess.sleep(50);
		}
	}

	/**
	 * The running replicas of {@code master} (by its node id), as this node's view of the
	 * Cluster says.
	 */
	public List<RedisServerProcess> replicasOf(RedisServerProcess master) {
		String masterId = (String) master.call("CLUSTER", "MYID");
		return nodes.stream()
			.filter(RedisServerProcess::isRunning)
			.filter(node -> node != master)
			.filter(node -> "slave".equals(node.info("replication").get("role"))
					&& ((String) node.call("CLUSTER", "NODES")).lines()
						.anyMatch(line -> line.contains("myself") && line.contains(masterId)))
			.toList();
	}

	private void assignSlotsAndMeet() {
		assignSlotsAndMeet(nodes.size());
	}

	private void assignSlotsAndMeet(int masters) {
		int per = SLOTS / masters;
		for (int i = 0; i < masters; i++) {
			int from = i * per;
			int to = i == masters - 1 ? SLOTS - 1 : from + per - 1;
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

	/**
	 * Waits until every running node reports {@code cluster_state:<state>} and knows all
	 * three masters.
	 */
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
				throw new IllegalStateException(
						"cluster did not reach cluster_state:" + state + " in " + seconds + "s");
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

	/**
	 * The node that serves {@code key}'s slot right now (asking only the nodes that run).
	 */
	public RedisServerProcess nodeFor(String key) {
		List<RedisServerProcess> running = nodes.stream().filter(RedisServerProcess::isRunning).toList();
		long slot = (Long) running.get(0).call("CLUSTER", "KEYSLOT", key);
		for (RedisServerProcess node : running) {
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
