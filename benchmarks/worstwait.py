#!/usr/bin/env python3
"""The worst wait of an HTTP request when Redis is frozen or slow, against limiter.redis.timeout + 100 ms.

Standard library only. Starts a delaying TCP proxy in front of the redis-server benchmarks/run started, then the
sample app (Redis mode) behind that proxy, and measures for a remembered credential (the demo token), a
first-seen one (a trial token minted while Redis was healthy), an anonymous caller and an expensive route
(POST /s/recall): N requests each with Redis healthy, frozen (SIGSTOP of the redis-server; SIGCONT after) and
slow (the proxy holds every reply for --slow-ms). The circuit breaker is kept from opening
(minimum-number-of-calls raised) so that every faulty request pays what a request pays before it opens: the
worst case; an open breaker only makes requests cheaper.

Times are end to end, as the client (this script, on the same machine) sees them; the healthy rows say what
the HTTP round trip itself costs on this machine at that moment.
Usage: worstwait.py --redis-port P --redis-pid PID --app-jar JAR --token T --out FILE [--requests N]
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import heapq

p = argparse.ArgumentParser()
p.add_argument("--redis-port", type=int, required=True)
p.add_argument("--redis-pid", type=int, required=True)
p.add_argument("--app-jar", required=True)
p.add_argument("--token", required=True)
p.add_argument("--out", required=True)
p.add_argument("--log", default=os.devnull)
p.add_argument("--requests", type=int, default=20)
p.add_argument("--timeout-ms", type=int, default=1000, help="limiter.redis.timeout (the starter's default: 1s)")
p.add_argument("--slow-ms", type=int, default=900, help="delay per reply: each round trip under the timeout")
a = p.parse_args()


class DelayingProxy:
    """Holds every reply from Redis for `delay` seconds, counted from when it arrived (delays do not pile up)."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.delay = 0.0
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            redis = socket.create_connection(("127.0.0.1", self.target_port))
            for s in (client, redis):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self.pump, args=(client, redis), daemon=True).start()
            self.delayed_pump(redis, client)

    @staticmethod
    def pump(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def delayed_pump(self, src, dst):
        due = []  # (when, seq, data)
        cond = threading.Condition()
        seq = [0]

        def read():
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    with cond:
                        seq[0] += 1
                        heapq.heappush(due, (time.monotonic() + self.delay, seq[0], data))
                        cond.notify()
            except OSError:
                pass
            with cond:
                heapq.heappush(due, (0, 0, None))
                cond.notify()

        def write():
            while True:
                with cond:
                    while not due or due[0][0] > time.monotonic():
                        cond.wait(None if not due else max(0.0, due[0][0] - time.monotonic()))
                    _, _, data = heapq.heappop(due)
                if data is None:
                    break
                try:
                    dst.sendall(data)
                except OSError:
                    break

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def call(url, method, path, token=None):
    req = urllib.request.Request(url + path, method=method, data=b"" if method == "POST" else None)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
            headers = r.headers
            status = r.status
    except urllib.error.HTTPError as e:
        e.read()
        headers, status = e.headers, e.code
    elapsed = (time.perf_counter() - start) * 1000
    # A response a shared cache may keep carries no limiter header at all (docs/http-contract.md), the
    # degraded one included.
    cacheable = "public" in (headers.get("Cache-Control") or "")
    return elapsed, status, headers.get("X-RateLimit-Degraded") == "true", cacheable


proxy = DelayingProxy(a.redis_port)
port = free_port()
url = "http://127.0.0.1:%d" % port
huge = "1000000000"
app = subprocess.Popen(
    ["java", "-Xms256m", "-Xmx256m", "-jar", a.app_jar, "--server.port=%d" % port, "--logging.level.root=WARN",
     "--spring.profiles.active=redis", "--spring.data.redis.host=127.0.0.1",
     "--spring.data.redis.port=%d" % proxy.port, "--limiter.redis.key-prefix=worst-%d" % int(time.time()),
     "--limiter.redis.timeout=%dms" % a.timeout_ms, "--sample.expensive-delay=0ms",
     "--limiter.budgets.standard.windows.minute.limit=" + huge,
     "--limiter.budgets.standard.windows.hour.limit=" + huge,
     "--limiter.budgets.anonymous.windows.minute.limit=" + huge,
     "--limiter.budgets.anonymous.windows.hour.limit=" + huge,
     # the breaker never opens: every faulty request pays what one pays before it opens
     "--resilience4j.circuitbreaker.instances.limiter.minimum-number-of-calls=1000000",
     "--resilience4j.circuitbreaker.instances.limiter.sliding-window-size=1000000"],
    stdout=open(a.log, "w"), stderr=subprocess.STDOUT)
frozen = False
try:
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/actuator/health", timeout=5).read()
            break
        except Exception:
            time.sleep(0.2)
    # Warm: the JIT, the connection, the scripts; the demo token becomes remembered.
    for _ in range(100):
        call(url, "GET", "/s/agents.md", a.token)
        call(url, "GET", "/public/ping")
        call(url, "POST", "/s/recall", a.token)
    n = a.requests
    trials = []  # one fresh token per first-seen request (healthy, frozen, slow), minted while Redis is healthy
    for _ in range(3 * n):
        with urllib.request.urlopen(urllib.request.Request(url + "/try", method="POST", data=b""), timeout=30) as r:
            trials.append(json.loads(r.read())["token"])
    rows = [
        ("remembered credential (demo token), GET /s/agents.md", "GET", "/s/agents.md", lambda i: a.token),
        ("first-seen credential (a fresh trial token), GET /s/agents.md", "GET", "/s/agents.md", None),
        ("anonymous, GET /public/ping", "GET", "/public/ping", lambda i: None),
        ("expensive route (demo token), POST /s/recall", "POST", "/s/recall", lambda i: a.token),
    ]
    trial_iter = iter(trials)
    results = []

    def measure(condition):
        for name, method, path, token in rows:
            times, degraded, statuses, cacheable = [], 0, {}, False
            for i in range(n):
                t = token(i) if token else next(trial_iter)
                ms, status, deg, cache = call(url, method, path, t)
                times.append(ms)
                cacheable |= cache
                degraded += deg
                statuses[status] = statuses.get(status, 0) + 1
            times.sort()
            row = {"condition": condition, "request": name, "requests": n, "maxMillis": times[-1],
                   "p99Millis": times[min(n - 1, int(round(0.99 * (n - 1))))],
                   "p50Millis": times[n // 2], "degraded": degraded, "statuses": statuses,
                   "cacheable": cacheable}
            results.append(row)
            print("%-8s %-66s p50 %7.1f  p99 %7.1f  max %7.1f ms  degraded %d/%d  %s" % (
                condition, name, row["p50Millis"], row["p99Millis"], row["maxMillis"], degraded, n, statuses),
                flush=True)

    load = {}
    load["healthy"] = open("/proc/loadavg").read().split()[0]
    measure("healthy")
    load["frozen"] = open("/proc/loadavg").read().split()[0]
    os.kill(a.redis_pid, signal.SIGSTOP)
    frozen = True
    measure("frozen")
    os.kill(a.redis_pid, signal.SIGCONT)
    frozen = False
    # let the backlog drain and the limiter turn authoritative again
    deadline = time.time() + 60
    while time.time() < deadline:
        _, _, deg, _ = call(url, "POST", "/s/recall", a.token)
        if not deg:
            break
        time.sleep(0.2)
    load["slow"] = open("/proc/loadavg").read().split()[0]
    proxy.delay = a.slow_ms / 1000.0
    measure("slow")
    proxy.delay = 0.0
    json.dump({"timeoutMillis": a.timeout_ms, "slowMillis": a.slow_ms, "requests": n, "load1": load,
               "rows": results}, open(a.out, "w"), indent=1)
finally:
    if frozen:
        os.kill(a.redis_pid, signal.SIGCONT)
    app.terminate()
    try:
        app.wait(20)
    except subprocess.TimeoutExpired:
        app.kill()
