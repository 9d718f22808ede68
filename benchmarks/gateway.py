#!/usr/bin/env python3
"""Issue 37's gateway measurement: one Spring Cloud Gateway (WebFlux server) route to a constant backend, with no
limiter (`none`), with `RequestRateLimiter` on `RedisRateLimiter` (`redis-rate-limiter`) and with limiter's `Limiter`
filter (`limiter`), the same token bucket (--replenish-rate a second, --burst-capacity; large enough that every
request is admitted, so that what is measured is the limiter's work), keyed on the same header (Authorization), on
one redis-server, under one hot key and under --spread-keys keys.

Standard library only. The backend (dev.limiter.benchmarks.peers.gateway.ConstantBackend) is a JVM of its own, so
that the gateway's CPU is the gateway's; the three gateways (GatewayPeerApplication, one JVM per variant, -Xms256m
-Xmx256m) are started side by side and idle but for their turn. Each is warmed for --warmup seconds (half hot, half
spread, on keys never measured), then --rounds rounds measure every variant under both key shapes, interleaved
(variant order rotated per round), each cell on keys of its own (fresh buckets). A cell records:

  requests, throughput, p50/p99, non-2xx answers (wrk --latency, --connections connections);
  the gateway's CPU time per request (utime + stime, /proc/<pid>/stat) and its ratio to the `none` run of the same
  round and shape;
  Redis commands per request (INFO commandstats over the cell: every command, the scripts' inner ones included,
  and EVAL/EVALSHA apart, which are the round trips a request costs);
  the 1-minute load average before and after.
and, per variant, the headers of one admitted response.

  benchmarks/gateway.py --peer-cp CLASSPATH --results benchmarks/results [--redis-port PORT]
      [--warmup 20 --measure 20 --rounds 1 --connections 8 --spread-keys 10000]

Without --redis-port it starts its own redis-server (PATH). Writes <results>/gateway/gateway.json (and each wrk
output beside it), which benchmarks/report.py turns into the "Gateway" section.
"""
import argparse
import ctypes
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

p = argparse.ArgumentParser()
p.add_argument("--peer-cp", required=True)
p.add_argument("--results", required=True)
p.add_argument("--redis-port", type=int, default=0)
p.add_argument("--redis-server", default="redis-server")
p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p.add_argument("--variants", default="none,redis-rate-limiter,limiter")
p.add_argument("--warmup", type=int, default=20)
p.add_argument("--measure", type=int, default=20)
p.add_argument("--rounds", type=int, default=1)
p.add_argument("--connections", type=int, default=8)
p.add_argument("--spread-keys", type=int, default=10000)
p.add_argument("--replenish-rate", type=int, default=1000)
p.add_argument("--burst-capacity", type=int, default=200000)
a = p.parse_args()

HZ = os.sysconf("SC_CLK_TCK")
LUA = os.path.join(a.root, "benchmarks", "wrk", "tokens.lua")
ROUTE = "/s/agents.md"
VARIANTS = a.variants.split(",")
SHAPES = ("hot", "spread")
out_dir = os.path.join(a.results, "gateway")
os.makedirs(out_dir, exist_ok=True)
work = tempfile.mkdtemp(prefix="limiter-gateway.")
children = []


def log(message):
    print(message, flush=True)


def die_with_parent():
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)
    except OSError:
        pass


def spawn(cmd, name):
    proc = subprocess.Popen(cmd, stdout=open(os.path.join(work, name + ".log"), "w"), stderr=subprocess.STDOUT,
                            preexec_fn=die_with_parent)
    children.append(proc)
    return proc


def stop_children(*_):
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()


signal.signal(signal.SIGTERM, lambda signum, _: (_ for _ in ()).throw(SystemExit(128 + signum)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answers on port {port} after {seconds} s (logs in {work})")


# ------------------------------------------------------------------------------------------------ redis
def redis(*args):
    s = socket.create_connection(("127.0.0.1", a.redis_port), timeout=5)
    s.sendall(("*%d\r\n" % len(args) + "".join("$%d\r\n%s\r\n" % (len(x), x) for x in args)).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        data += chunk
        if not chunk or (data.startswith(b"$") and data.count(b"\r\n") >= 2
                         and len(data) >= data.index(b"\r\n") + 2 + int(data[1:data.index(b"\r\n")]) + 2) \
                or data.startswith((b"+", b"-", b":")) and data.endswith(b"\r\n"):
            break
    s.close()
    return data.decode(errors="replace")


def commandstats():
    calls = {}
    for line in redis("INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_"):
            name, rest = line[len("cmdstat_"):].split(":", 1)
            calls[name] = int(rest.split("calls=")[1].split(",")[0])
    return calls


# ------------------------------------------------------------------------------------------------- load
def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


def loadavg():
    return float(open("/proc/loadavg").read().split()[0])


def tokens_file(name, count):
    path = os.path.join(work, name + ".tokens")
    with open(path, "w") as f:
        for i in range(count):
            f.write(f"gw_{name}_{i:06d}\n")
    return path


def wrk(url, tokens, seconds, out=None):
    cmd = ["wrk", "-t2", f"-c{a.connections}", f"-d{seconds}s", "--latency", "-s", LUA, url + ROUTE, "--", tokens]
    text = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=die_with_parent).stdout
    if out:
        open(out, "w").write(text)
    import re

    def latency(q):
        m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % q, text, re.M)
        if not m:
            return float("nan")
        v, unit = float(m.group(1)), m.group(2)
        return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    requests = re.search(r"(\d+) requests in", text)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return {"requests": int(requests.group(1)) if requests else 0, "rps": float(rps.group(1)) if rps else 0.0,
            "p50Millis": latency(50), "p99Millis": latency(99), "non2xx": int(non2xx.group(1)) if non2xx else 0}


def sample_headers(url):
    request = urllib.request.Request(url + ROUTE, headers={"Authorization": "Bearer gw_headers_sample"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {"status": response.status, "headers": [[k, v] for k, v in response.getheaders()]}


# ------------------------------------------------------------------------------------------------- main
def main():
    if a.redis_port == 0:
        a.redis_port = free_port()
        spawn([a.redis_server, "--port", str(a.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
               "--dir", work], "redis")
        wait_port(a.redis_port)
    redis_version = next((line.split(":", 1)[1] for line in redis("INFO", "server").splitlines()
                          if line.startswith("redis_version:")), "?")
    backend_port = free_port()
    spawn(["java", "-Xms64m", "-Xmx128m", "-cp", a.peer_cp, "dev.limiter.benchmarks.peers.gateway.ConstantBackend",
           str(backend_port)], "backend")
    wait_port(backend_port)
    gateways = {}
    for variant in VARIANTS:
        port = free_port()
        proc = spawn(["java", "-Xms256m", "-Xmx256m", "-XX:+UseParallelGC", "-cp", a.peer_cp,
                      "dev.limiter.benchmarks.peers.gateway.GatewayPeerApplication", f"--server.port={port}",
                      f"--gateway.variant={variant}", f"--gateway.backend=http://127.0.0.1:{backend_port}",
                      f"--gateway.replenish-rate={a.replenish_rate}", f"--gateway.burst-capacity={a.burst_capacity}",
                      f"--limiter.enabled={'true' if variant == 'limiter' else 'false'}",
                      "--spring.data.redis.host=127.0.0.1", f"--spring.data.redis.port={a.redis_port}",
                      f"--limiter.redis.key-prefix=gateway-{int(time.time())}", "--logging.level.root=WARN"],
                     "gateway-" + variant)
        gateways[variant] = {"url": f"http://127.0.0.1:{port}", "port": port, "proc": proc}
    for variant, g in gateways.items():
        wait_port(g["port"], 180)
    headers = {}
    for variant, g in gateways.items():
        headers[variant] = sample_headers(g["url"])
        log(f"{variant}: {headers[variant]['status']} {[h for h, _ in headers[variant]['headers']]}")

    warm_started = time.time()
    for variant, g in gateways.items():
        for shape in SHAPES:
            log(f"warm-up {variant} {shape} ({a.warmup // 2} s)")
            wrk(g["url"], tokens_file(f"warm_{variant}_{shape}", 1 if shape == "hot" else a.spread_keys),
                a.warmup // 2)
    cells = []
    for rnd in range(1, a.rounds + 1):
        order = VARIANTS[(rnd - 1) % len(VARIANTS):] + VARIANTS[:(rnd - 1) % len(VARIANTS)]
        for shape in SHAPES:
            for variant in order:
                g = gateways[variant]
                tokens = tokens_file(f"r{rnd}_{variant}_{shape}", 1 if shape == "hot" else a.spread_keys)
                load_before, ticks_before, stats_before = loadavg(), cpu_ticks(g["proc"].pid), commandstats()
                result = wrk(g["url"], tokens, a.measure, os.path.join(out_dir, f"wrk-{variant}-{shape}-r{rnd}.txt"))
                ticks_after, stats_after, load_after = cpu_ticks(g["proc"].pid), commandstats(), loadavg()
                delta = {k: v - stats_before.get(k, 0) for k, v in stats_after.items() if v - stats_before.get(k, 0)}
                delta["info"] = max(0, delta.get("info", 0) - 1)  # this script's own INFO after the window
                delta = {k: v for k, v in delta.items() if v}
                n = result["requests"] or 1
                cell = dict(result, variant=variant, shape=shape, round=rnd, loadBefore=load_before,
                            loadAfter=load_after, cpuMillisPerRequest=(ticks_after - ticks_before) * 1000 / HZ / n,
                            redisCommands=delta,
                            redisCommandsPerRequest=sum(v for k, v in delta.items() if k != "info") / n,
                            scriptCallsPerRequest=(delta.get("evalsha", 0) + delta.get("eval", 0)) / n)
                cells.append(cell)
                log(f"r{rnd} {shape:6} {variant:18} {cell['rps']:9,.0f} req/s  p99 {cell['p99Millis']:.2f} ms  "
                    f"cpu {cell['cpuMillisPerRequest'] * 1000:.0f} µs/req  redis {cell['redisCommandsPerRequest']:.2f} "
                    f"cmd/req  non-2xx {cell['non2xx']}  load {load_before:.2f}→{load_after:.2f}")
    json.dump({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(warm_started)), "redisVersion": redis_version,
               "cores": os.cpu_count(), "warmupSeconds": a.warmup, "measureSeconds": a.measure, "rounds": a.rounds,
               "connections": a.connections, "spreadKeys": a.spread_keys, "replenishRate": a.replenish_rate,
               "burstCapacity": a.burst_capacity, "headers": headers, "cells": cells},
              open(os.path.join(out_dir, "gateway.json"), "w"), indent=2)
    log(f"wrote {os.path.join(out_dir, 'gateway.json')}")


try:
    main()
finally:
    stop_children()
