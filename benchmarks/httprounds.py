#!/usr/bin/env python3
"""The HTTP rounds of benchmarks/run: the sample app (limiter off, in memory, on Redis on Lettuce and on Jedis, and on
both again with leased quota slices on for the route's budget, issue 38), the reactive sample app
(sample-app-webflux: the same routes, tokens and budgets on WebFlux; limiter off, in memory, on Redis with Lettuce,
the only client a reactive app accepts), the two HTTP peers (a
filter on Bucket4j's Lettuce proxy manager; bucket4j-spring-boot-starter on Redis) and the plain limiter app
(limiter's starter on Redis in an app as lean as the peers'), each beside its own limiter-off run (the same app with
its filter off), on one redis-server, the same route (GET /s/agents.md, a constant body), the
same budget and the same tokens, under one hot key and under spread keys.

Standard library only. Every app is one JVM for the whole section (-Xms512m -Xmx512m, a GC log of its own), started
one after another (each once the previous one serves), side by side and idle but for their turn: each is warmed under the same load as measured (wrk, hot and spread
alternated in steps) until its JIT compiler threads take less than 3 % of its CPU over a step, at least --warm-min and
at most --warm-max seconds; then --rounds alternated rounds measure every app under both key shapes, each round
starting with another app. A measured window records, for that app only:

  requests, throughput, p50/p99 (wrk --latency, --connections connections), non-2xx answers;
  CPU time per request (utime + stime of every thread, /proc/<pid>/task/*/stat) with and without the JIT compiler
  threads ("request work" leaves them out), and context switches per request (voluntary + involuntary, every
  thread, /proc/<pid>/task/*/status; the involuntary ones, preemptions rather than waits, also apart);
  bytes allocated per request: heap used at the window's end minus at its start (the JVM's hsperfdata counters, read
  in place, so the app does nothing for it) plus what every GC pause inside the window freed (its GC log line);
  Redis commands sent per request: INFO commandstats over the window, minus the commands scripts run inside Redis
  (see client_commands());
  the seconds of load the JVM had served before the window (its warm-up so far; a sliced app serves
  SLICE_SETTLE_SECONDS of hot load before its hot-key window, see there), the 1-minute load average before
  and after, and the load and CPU of processes other than the benchmark's own (app, wrk, redis-server, this script)
  during the window: the run's own 8 connections keep the load average far above 2 on 2 cores, so only the others'
  share says whether the machine was busy.

  benchmarks/httprounds.py --app-jar sample-app/target/sample-app-0.1.0-SNAPSHOT.jar \\
      --webflux-jar sample-app-webflux/target/sample-app-webflux-0.1.0-SNAPSHOT.jar --peer-cp CLASSPATH \\
      --redis-port 6379 --redis-pid PID --results DIR --work DIR [--rounds 3 --measure 10 ...]

Without --webflux-jar the reactive modes are left out of the default modes.
"""
import argparse
import ctypes
import glob
import json
import os
import pwd
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

p = argparse.ArgumentParser()
p.add_argument("--app-jar", required=True)
p.add_argument("--webflux-jar", default="", help="the reactive sample's jar (modes reactive-*)")
p.add_argument("--peer-cp", required=True)
p.add_argument("--redis-port", type=int, required=True)
p.add_argument("--redis-pid", type=int, default=0)
p.add_argument("--results", required=True)
p.add_argument("--work", required=True)
p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p.add_argument("--modes", default="", help="comma-separated; default: every mode (the reactive ones with "
                                           "--webflux-jar)")
p.add_argument("--shapes", default="hot,spread")
p.add_argument("--rounds", type=int, default=3)
p.add_argument("--measure", type=int, default=10)
p.add_argument("--latency", type=int, default=4, help="seconds of 1-connection load (hot key) per app, last round")
p.add_argument("--warm-min", type=int, default=30)
p.add_argument("--warm-max", type=int, default=90)
p.add_argument("--warm-step", type=int, default=5)
p.add_argument("--connections", type=int, default=8)
p.add_argument("--spread-tokens", type=int, default=1000)
p.add_argument("--sample-arg", action="append", default=[],
               help="one more argument for both sample apps in every mode (repeatable), e.g. "
                    "--sample-arg=--management.observations.enable.limiter=false")
p.add_argument("--jfr-dir", default="")
a = p.parse_args()
SERVLET_MODES = ["off", "memory", "redis", "redis-jedis", "redis-sliced", "redis-sliced-jedis"]
REACTIVE_MODES = ["reactive-off", "reactive-memory", "reactive-redis"]
PEER_MODES = ["bucket4j-off", "bucket4j", "starter-off", "starter", "plain-off", "plain", "plain-jedis"]
if not a.modes:
    a.modes = ",".join(SERVLET_MODES + (REACTIVE_MODES if a.webflux_jar else []) + PEER_MODES)
if any(m in REACTIVE_MODES for m in a.modes.split(",")) and not a.webflux_jar:
    p.error("the reactive modes need --webflux-jar")

HOT_TOKEN = "sp_DEMO0000000000000000000000000001"
ROUTE = "/s/agents.md"
HZ = os.sysconf("SC_CLK_TCK")
CORES = os.cpu_count() or 1
LUA = os.path.join(a.root, "benchmarks", "wrk", "tokens.lua")
SAMPLE_BUDGET = ["--limiter.budgets.standard.windows.minute.limit=1000000000",
                 "--limiter.budgets.standard.windows.hour.limit=60000000000"]
PEER_BUDGET = ["--peer.budget.per-minute=1000000000", "--peer.budget.per-hour=60000000000"]
# What each mode is: which app, which of its filters is on, and whose Redis commands it sends.
KIND = {"off": "limiter", "memory": "limiter", "redis": "limiter", "redis-jedis": "limiter",
        "redis-sliced": "limiter", "redis-sliced-jedis": "limiter",
        "reactive-off": "reactive", "reactive-memory": "reactive", "reactive-redis": "reactive",
        "bucket4j-off": "bucket4j",
        "bucket4j": "bucket4j", "starter-off": "starter", "starter": "starter", "plain-off": "plain", "plain": "plain",
        "plain-jedis": "plain", "plain-memory": "plain"}
# limiter's own apps: the sample app (servlet and reactive), and the plain app (limiter's starter in an app as lean
# as the peers')
LIMITER_KINDS = ("limiter", "reactive", "plain")
# the two sample apps: their jar, and the prefix their modes carry (the sample's mode is what follows it)
SAMPLE_APPS = {"limiter": ("app_jar", ""), "reactive": ("webflux_jar", "reactive-")}
OFF_MODES = ("off", "reactive-off", "bucket4j-off", "starter-off", "plain-off")
JEDIS_MODES = ("redis-jedis", "redis-sliced-jedis", "plain-jedis")
# the sample app on Redis with leased quota slices (issue 38, ADR 0014) for the budget the route spends
# (`standard`, the sample's default budget), slices.max and slices.ttl at their defaults
SLICED_MODES = ("redis-sliced", "redis-sliced-jedis")
SLICED_BUDGET = "standard"
SLICE_CHECK_REQUESTS = 40
# Before a sliced app's hot-key window, this many seconds of hot load, not measured: the slices its spread keys took
# in the load before expire (slices.ttl, 1 s by default) and are given back by the sweep that the hot key's next slice
# runs (at most once a second), so that the window counts the hot key's own Redis commands, not those give-backs (one
# per spread key that held a slice, about 200 with 200 tokens: 0.05 commands per request in a 3 s window)
SLICE_SETTLE_SECONDS = 3
children = []


def log(message):
    print(message, flush=True)


# ------------------------------------------------------------------------------------------- processes
def die_with_parent():
    # an app never outlives this script, however it ends (PR_SET_PDEATHSIG = 1)
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)
    except OSError:
        pass


def stop_children(*_):
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()


def on_signal(signum, _frame):
    raise SystemExit(128 + signum)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def write_tokens():
    hot = os.path.join(a.work, "tokens-hot.txt")
    spread = os.path.join(a.work, "tokens-spread.txt")
    tokens = ["sp_BENCH%027d" % i for i in range(1, a.spread_tokens + 1)]
    open(hot, "w").write(HOT_TOKEN + "\n")
    open(spread, "w").write("\n".join(tokens) + "\n")
    return {"hot": hot, "spread": spread}, tokens


def app_command(mode, port, gc_log, spread_tokens):
    jvm = ["java", "-Xms512m", "-Xmx512m", f"-Xlog:gc:file={gc_log}", "-XX:+UsePerfData"]
    if a.jfr_dir:
        # deep enough for a request's whole stack (Tomcat, the filter chain, Spring MVC): the default 64 frames
        # stop above the filters, so no sample would show which filter it was spent in
        jvm += ["-XX:FlightRecorderOptions:stackdepth=512",
                f"-XX:StartFlightRecording=filename={a.jfr_dir}/http-{mode}.jfr,settings=profile,dumponexit=true"]
    common = [f"--server.port={port}", "--logging.level.root=WARN"]
    kind = KIND[mode]
    if kind in SAMPLE_APPS:
        jar_option, prefix = SAMPLE_APPS[kind]
        app_jar, sample_mode = getattr(a, jar_option), mode[len(prefix):]
        args = ["-jar", app_jar] + common + SAMPLE_BUDGET + a.sample_arg
        if sample_mode in ("redis-jedis", "redis-sliced-jedis"):
            # the sample app ships Lettuce only: Jedis and its pool come from the benchmarks' class path (the
            # starter peer's), added through Boot's PropertiesLauncher; client-type makes Boot build Jedis's factory
            extra = [j for j in a.peer_cp.split(":") if re.search(r"/(jedis|commons-pool2)-[0-9][^/]*\.jar$", j)]
            if len(extra) != 2:
                sys.exit(f"{mode}: Jedis and commons-pool2 not found on the benchmarks' class path ({extra})")
            args = [f"-Dloader.path={','.join(extra)}", "-cp", app_jar,
                    "org.springframework.boot.loader.launch.PropertiesLauncher"] + common + SAMPLE_BUDGET \
                + a.sample_arg + ["--spring.data.redis.client-type=jedis"]
        if sample_mode == "off":
            args.append("--limiter.enabled=false")
        elif sample_mode == "memory":
            args.append("--limiter.store=memory")
        else:
            args += ["--spring.profiles.active=redis", "--spring.data.redis.host=127.0.0.1",
                     f"--spring.data.redis.port={a.redis_port}"]
            if sample_mode in SLICED_MODES:
                # its own counters, so that no other app's decisions land in its slices' keys
                args += [f"--limiter.budgets.{SLICED_BUDGET}.slices.enabled=true",
                         f"--limiter.redis.key-prefix=sample-{sample_mode}"]
        # the spread tokens authenticate like the demo token (benchmarks only), each counted apart
        shown = args + [f"--sample.extra-demo-tokens=<{len(spread_tokens)} tokens>"]
        args.append("--sample.extra-demo-tokens=" + ",".join(spread_tokens))
        return jvm + args, jvm + shown
    on = "false" if mode.endswith("-off") else "true"
    if kind == "plain":
        args = ["-cp", a.peer_cp, "dev.limiter.benchmarks.peers.plain.PlainLimiterApplication"] + common \
            + SAMPLE_BUDGET + [f"--limiter.enabled={on}", "--spring.data.redis.host=127.0.0.1",
                               f"--spring.data.redis.port={a.redis_port}"]
        if mode == "plain-jedis":
            args.append("--spring.data.redis.client-type=jedis")
        elif mode == "plain-memory":
            # not in the default modes: limiter's own work without Redis, on the peers' base
            args.append("--limiter.store=memory")
    elif kind == "bucket4j":
        args = ["-cp", a.peer_cp, "dev.limiter.benchmarks.peers.bucket4j.Bucket4jFilterApplication"] + common \
            + PEER_BUDGET + [f"--peer.redis.port={a.redis_port}", f"--peer.bucket4j.enabled={on}"]
    else:
        args = ["-cp", a.peer_cp, "dev.limiter.benchmarks.peers.starter.StarterFilterApplication"] + common \
            + PEER_BUDGET + [f"--peer.redis.port={a.redis_port}", f"--bucket4j.enabled={on}"]
    shown = [x if x != a.peer_cp else "<benchmarks class path>" for x in jvm + args]
    return jvm + args, shown


def get(url, token=HOT_TOKEN, timeout=2):
    req = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, {k.lower(): v for k, v in r.getheaders()}
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}


# ---------------------------------------------------------------------------------------- the app's CPU
def app_cpu(pid):
    """(all threads' clock ticks, the JIT compiler threads' ticks, every thread's context switches, all threads'
    clock ticks in the kernel, every thread's involuntary switches: preempted, not waiting)"""
    total = jit = switches = system = involuntary = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{task}/stat").read()
            status = open(f"/proc/{pid}/task/{task}/status").read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        total += ticks
        system += int(fields[12])
        if "CompilerThre" in stat[stat.index("(") + 1:stat.rindex(")")]:
            jit += ticks
        for line in status.splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                switches += int(line.split()[1])
                if line.startswith("nonvoluntary"):
                    involuntary += int(line.split()[1])
    return total, jit, switches, system, involuntary


def process_ticks(pid, reaped_children=False):
    """utime + stime of a process (every thread); with reaped_children, also of the children it has waited for
    (this script's wrk runs end inside the window and are reaped before it closes)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15 if reaped_children else 13])
    except OSError:
        return 0


def running_threads(pid):
    n = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for task in tasks:
        try:
            if open(f"/proc/{pid}/task/{task}/stat").read().rsplit(")", 1)[1].split()[0] == "R":
                n += 1
        except OSError:
            pass
    return n


def busy_ticks():
    # user, nice, system, irq, softirq, steal of every CPU (guest time is already inside user)
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]] + [0] * 8
    return f[0] + f[1] + f[2] + f[5] + f[6] + f[7]


class OtherLoad:
    """Samples, once a second while a window runs, the runnable threads of processes other than the benchmark's
    own (app, wrk, redis-server and this script): every other process's threads in state R, counted directly. (It
    used to be the machine's procs_running minus the benchmark's runnable threads, read a few milliseconds apart:
    with 8 connections the benchmark's own count moves within that gap, and one window read 2.1 runnable others
    while they took 0.012 cores.) Also measures the CPU those others took over the window (the machine's busy
    ticks minus the benchmark's)."""

    def __init__(self, pids):
        self.pids = [x for x in pids if x]
        self.samples = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self):
        self.t0 = time.monotonic()
        self.busy0 = busy_ticks()
        self.own0 = self.own_ticks()
        self.thread.start()
        return self

    def own_ticks(self):
        return sum(process_ticks(x, reaped_children=(x == os.getpid())) for x in self.pids)

    def run(self):
        own = set(self.pids)
        while not self.stop.wait(1.0):
            self.samples.append(sum(running_threads(int(x)) for x in os.listdir("/proc")
                                    if x.isdigit() and int(x) not in own))

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()
        seconds = time.monotonic() - self.t0
        own = self.own_ticks() - self.own0
        self.cpu_cores = max(0.0, (busy_ticks() - self.busy0 - own) / HZ / max(seconds, 1e-3))
        self.runnable = sum(self.samples) / len(self.samples) if self.samples else 0.0


# ------------------------------------------------------------------------------------------ allocation
PERF_NAMES = ["sun.gc.generation.0.space.0.used", "sun.gc.generation.0.space.1.used",
              "sun.gc.generation.0.space.2.used", "sun.gc.generation.1.space.0.used",
              "sun.gc.collector.0.invocations", "sun.gc.collector.1.invocations", "sun.gc.collector.2.invocations"]
perf_offsets = {}


def perfdata(pid):
    """The heap counters of a JVM's hsperfdata file (/tmp/hsperfdata_<user>/<pid>), read in place: the JVM does
    nothing for it. Format: a prologue (magic 0xcafec0c0, byte order, ..., entry offset, entry count) and entries
    (length, name offset, vector length, type, flags, units, variability, data offset)."""
    path = f"/tmp/hsperfdata_{pwd.getpwuid(os.getuid()).pw_name}/{pid}"
    data = open(path, "rb").read()
    order = "<" if data[4] == 1 else ">"
    if pid not in perf_offsets or len(perf_offsets[pid]) < len(PERF_NAMES):
        entry_offset, entries = struct.unpack_from(order + "ii", data, 24)
        found, at = {}, entry_offset
        for _ in range(entries):
            length, name_at, vector, kind = struct.unpack_from(order + "iiib", data, at)
            data_at = struct.unpack_from(order + "i", data, at + 16)[0]
            name = data[at + name_at:data.index(b"\0", at + name_at)].decode()
            if name in PERF_NAMES and vector == 0 and kind == ord("J"):
                found[name] = at + data_at
            at += length
        perf_offsets[pid] = found
    return {n: struct.unpack_from(order + "q", data, o)[0] for n, o in perf_offsets[pid].items()}


PAUSE = re.compile(r"GC\((\d+)\) Pause .*? (\d+)M->(\d+)M\(\d+M\)")


def gc_pauses(gc_log):
    try:
        return [(int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in PAUSE.finditer(open(gc_log).read())]
    except OSError:
        return []


def heap_snapshot(pid, gc_log):
    """Heap used and the GC pauses logged so far, read when no pause is under way: a pause counts itself in the
    collectors' invocations when it starts and writes its log line when it ends, so equal counts mean none is."""
    for _ in range(200):
        c = perfdata(pid)
        pauses = gc_pauses(gc_log)
        invocations = sum(v for k, v in c.items() if k.endswith("invocations"))
        c2 = perfdata(pid)
        if invocations == len(pauses) and c2 == c:
            used = sum(v for k, v in c.items() if k.endswith(".used"))
            return {"used": used, "pauses": len(pauses)}
        time.sleep(0.02)
    return None


def allocated(before, after, gc_log):
    """Bytes allocated between two snapshots, and the pauses between them; None if either snapshot failed."""
    if not before or not after:
        return None, 0
    window = gc_pauses(gc_log)[before["pauses"]:after["pauses"]]
    freed = sum(b - e for _, b, e in window) * 1024 * 1024
    return after["used"] - before["used"] + freed, len(window)


# ----------------------------------------------------------------------------------------------- Redis
def redis_commandstats():
    s = socket.create_connection(("127.0.0.1", a.redis_port), timeout=5)
    s.sendall(b"INFO commandstats\r\n")
    buf = b""
    while b"\r\n" not in buf:
        buf += s.recv(65536)
    header, rest = buf.split(b"\r\n", 1)
    length = int(header[1:])
    while len(rest) < length:
        rest += s.recv(65536)
    s.close()
    stats = {}
    for line in rest[:length].decode().splitlines():
        m = re.match(r"cmdstat_([^:]+):calls=(\d+)", line)
        if m:
            stats[m.group(1)] = int(m.group(2))
    return stats


def limiter_script_commands():
    names = set()
    for f in glob.glob(os.path.join(a.root, "limiter-spring", "src", "main", "resources", "dev", "limiter", "redis",
                                    "*.lua")):
        names |= {n.lower() for n in re.findall(r"redis\.p?call\(\s*['\"]([A-Za-z]+)['\"]", open(f).read())}
    return names


LIMITER_SCRIPT_COMMANDS = limiter_script_commands()


def client_commands(kind, delta):
    """Commands the app sent to Redis (what crossed the network), from INFO commandstats, which also counts the
    commands a script runs inside Redis. limiter's clients send scripts (EVALSHA, EVAL on NOSCRIPT) and, on this
    route, nothing its scripts also run: every command its scripts run (read from its .lua files) is left out.
    Bucket4j's compare-and-swap proxy managers (both peers) send GET, then EVAL of a script that runs GET once
    (compare-and-swap) or SET once (a new bucket), and PSETEX when the swap succeeds: their scripts' own commands
    are one GET or SET per EVAL plus the PSETEX calls."""
    d = {k: v for k, v in delta.items() if v and k != "info"}
    if kind in LIMITER_KINDS:
        return sum(v for k, v in d.items() if k not in LIMITER_SCRIPT_COMMANDS)
    return sum(d.values()) - d.get("eval", 0) - d.get("evalsha", 0) - d.get("psetex", 0)


# -------------------------------------------------------------------------------------------------- wrk
def parse_wrk(text):
    def latency(q):
        m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % q, text, re.M)
        if not m:
            return float("nan")
        v, unit = float(m.group(1)), m.group(2)
        return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
    requests = re.search(r"(\d+) requests in", text)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return {"requests": int(requests.group(1)) if requests else 0, "rps": float(rps.group(1)) if rps else 0.0,
            "p50Millis": latency(50), "p99Millis": latency(99), "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socketErrors": sum(int(x) for x in errors.groups()) if errors else 0}


def wrk(url, tokens_file, connections, seconds):
    threads = 2 if connections >= 2 else 1
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", LUA, url + ROUTE,
           "--", tokens_file]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=die_with_parent)


def wrk_wait(proc, out=None):
    text = proc.communicate()[0]
    if out:
        open(out, "w").write(text)
    return parse_wrk(text)


# ------------------------------------------------------------------------------------------------- main
def main():
    os.makedirs(a.results, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    if a.jfr_dir:
        os.makedirs(a.jfr_dir, exist_ok=True)
    token_files, spread_tokens = write_tokens()
    modes = a.modes.split(",")
    shapes = a.shapes.split(",")
    apps = {}
    started = time.monotonic()
    for mode in modes:
        port = free_port()
        gc_log = os.path.join(a.work, f"gc-{mode}.log")
        cmd, shown = app_command(mode, port, gc_log, spread_tokens)
        out = open(os.path.join(a.work, f"app-{mode}.log"), "w")
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        children.append(proc)
        app = apps[mode] = {"proc": proc, "url": f"http://127.0.0.1:{port}", "gcLog": gc_log, "served": 0.0,
                            "info": {"mode": mode, "kind": KIND[mode], "command": shown}}
        # the next app starts once this one serves: one JVM starting at a time
        deadline = time.monotonic() + 240
        while True:
            try:
                status, _ = get(app["url"] + ROUTE)
                if status == 200:
                    break
            except OSError:
                pass
            if app["proc"].poll() is not None or time.monotonic() > deadline:
                tail = open(os.path.join(a.work, f"app-{mode}.log")).read()[-3000:]
                sys.exit(f"{mode}: the app did not serve {ROUTE}; its log ends:\n{tail}")
            time.sleep(0.3)
    # every app up, and the filters that should run do (and the others do not)
    for mode, app in apps.items():
        check(mode, app, spread_tokens)
        app["info"]["startedAfterSeconds"] = round(time.monotonic() - started, 1)
    log(f"{len(apps)} apps up after {time.monotonic() - started:.0f} s")

    # warm-up: each app alone, in steps of --warm-step seconds, hot and spread alternated
    for mode in modes:
        app = apps[mode]
        steps, t0 = [], time.monotonic()
        while True:
            shape = shapes[len(steps) % len(shapes)]
            c0 = app_cpu(app["proc"].pid)
            wrk_wait(wrk(app["url"], token_files[shape], a.connections, a.warm_step))
            c1 = app_cpu(app["proc"].pid)
            app["served"] += a.warm_step
            total = c1[0] - c0[0]
            share = (c1[1] - c0[1]) / total if total else 0.0
            steps.append({"shape": shape, "seconds": a.warm_step, "jitShare": round(share, 4)})
            quiet = share < 0.03
            if (app["served"] >= a.warm_min and quiet) or app["served"] >= a.warm_max:
                break
        app["info"].update({"warmupSeconds": app["served"], "warmupSteps": steps, "jitQuiet": quiet,
                            "warmupWallSeconds": round(time.monotonic() - t0, 1)})
        log(f"{mode:15s} warmed {app['served']:.0f} s of load, JIT share of the last step {share:.1%}"
            f"{'' if quiet else ' (still compiling at the cap)'}")

    # rounds: each starts with another app; each app measures both shapes, in alternating order
    for r in range(1, a.rounds + 1):
        order = [modes[(i + r - 1) % len(modes)] for i in range(len(modes))]
        for position, mode in enumerate(order, 1):
            app = apps[mode]
            for shape in (shapes if r % 2 else list(reversed(shapes))):
                result = measure(mode, app, shape, r, position, token_files[shape])
                log(f"round {r} {mode:15s} {shape:6s} {result['rps']:8.0f} req/s  "
                    f"{result['cpuMicrosPerRequestWithoutJit']:6.1f} us work  "
                    f"{result['contextSwitchesPerRequest']:5.2f} cs  "
                    + (f"{result['allocatedBytesPerRequest'] / 1024:6.1f} KiB  "
                       if result["allocatedBytesPerRequest"] is not None else "  ? KiB  ")
                    + f"{result['redisCommandsPerRequest']:4.2f} cmd  p99 {result['p99Millis']:.2f} ms  "
                    f"non-2xx {result['non2xx']}  others {result['otherRunnable']:.2f} runnable")
            if r == a.rounds and a.latency > 0:
                out = os.path.join(a.results, f"http-{mode}-hot-c1-r{r}.txt")
                one = wrk_wait(wrk(app["url"], token_files["hot"], 1, a.latency), out)
                app["served"] += a.latency
                json.dump(dict(one, mode=mode, shape="hot", round=r, connections=1, measureSeconds=a.latency,
                               warmupSeconds=app["served"] - a.latency),
                          open(out[:-4] + ".json", "w"), indent=1)
    for mode, app in apps.items():
        app["info"]["servedSeconds"] = app["served"]
    json.dump({"connections": a.connections, "measureSeconds": a.measure, "rounds": a.rounds,
               "latencySeconds": a.latency, "spreadTokens": a.spread_tokens, "warmMinSeconds": a.warm_min,
               "warmMaxSeconds": a.warm_max, "warmStepSeconds": a.warm_step, "cores": CORES, "route": ROUTE,
               "heap": "-Xms512m -Xmx512m", "apps": [apps[m]["info"] for m in modes],
               "sectionSeconds": round(time.monotonic() - started)},
              open(os.path.join(a.results, "http-apps.json"), "w"), indent=1)


def check(mode, app, spread_tokens):
    """The filter under test runs where it should and only there: a peer's answer carries its remaining-count
    header when its filter is on; limiter's answers (GET /public/ping, not shared-cacheable) carry X-RateLimit-Limit
    when it is on; a spread token authenticates (the sample app knows them only through sample.extra-demo-tokens)."""
    url = app["url"]
    status, _ = get(url + ROUTE, spread_tokens[-1])
    if status != 200:
        sys.exit(f"{mode}: a spread token was answered {status}, not 200")
    on = mode not in OFF_MODES
    if KIND[mode] in LIMITER_KINDS:
        _, headers = get(url + "/public/ping")
        seen = "x-ratelimit-limit" in headers
    else:
        _, headers = get(url + ROUTE)
        seen = any(h in headers for h in ("x-ratelimit-remaining", "x-rate-limit-remaining"))
    if seen != on:
        sys.exit(f"{mode}: the rate-limit filter is {'off' if on else 'on'} (headers {sorted(headers)})")
    if mode in JEDIS_MODES:
        # the app has answered through the limiter on Redis by now: had Lettuce been chosen, its event loop
        # threads would exist (a thread's name is in /proc/<pid>/task/<tid>/comm, cut at 15 characters)
        names = set()
        for comm in glob.glob(f"/proc/{app['proc'].pid}/task/*/comm"):
            try:
                names.add(open(comm).read().strip())
            except OSError:
                pass
        if any(n.startswith("lettuce") for n in names):
            sys.exit(f"{mode}: Lettuce threads run in the Jedis app ({sorted(names)})")
    if mode in SLICED_MODES:
        # slices on: requests of one warm credential are decided from this instance's slice, not one script call
        # each (the other apps are idle now, so the server's script calls are this app's)
        before = redis_commandstats()
        for _ in range(SLICE_CHECK_REQUESTS):
            get(url + ROUTE)
        after = redis_commandstats()
        calls = sum(after.get(c, 0) - before.get(c, 0) for c in ("evalsha", "eval"))
        if calls > SLICE_CHECK_REQUESTS // 4:
            sys.exit(f"{mode}: {calls} script calls for {SLICE_CHECK_REQUESTS} requests of one credential: slices "
                     "are not on")


def measure(mode, app, shape, r, position, tokens_file):
    pid = app["proc"].pid
    base = os.path.join(a.results, f"http-{mode}-{shape}-r{r}")
    settle = SLICE_SETTLE_SECONDS if mode in SLICED_MODES and shape == "hot" else 0
    if settle:
        wrk_wait(wrk(app["url"], tokens_file, a.connections, settle))
        app["served"] += settle
    load_before = float(open("/proc/loadavg").read().split()[0])
    warmed = app["served"]
    heap0 = heap_snapshot(pid, app["gcLog"])
    redis0 = redis_commandstats()
    cpu0 = app_cpu(pid)
    proc = wrk(app["url"], tokens_file, a.connections, a.measure)
    with OtherLoad([pid, proc.pid, a.redis_pid, os.getpid()]) as other:
        w = wrk_wait(proc, base + ".txt")
    cpu1 = app_cpu(pid)
    redis1 = redis_commandstats()
    heap1 = heap_snapshot(pid, app["gcLog"])
    app["served"] += a.measure
    n = max(1, w["requests"])
    total, jit, switches, system, involuntary = [(y - x) for x, y in zip(cpu0, cpu1)]
    alloc, pauses = allocated(heap0, heap1, app["gcLog"])
    delta = {k: v - redis0.get(k, 0) for k, v in redis1.items() if v - redis0.get(k, 0)}
    delta.pop("info", None)
    commands = client_commands(KIND[mode], delta)
    result = dict(w, mode=mode, kind=KIND[mode], shape=shape, round=r, order=position,
                  connections=a.connections, measureSeconds=a.measure, warmupSeconds=warmed,
                  cpuSeconds=total / HZ, jitCpuSeconds=jit / HZ,
                  cpuMicrosPerRequest=total / HZ * 1e6 / n, cpuMicrosPerRequestWithoutJit=(total - jit) / HZ * 1e6 / n,
                  systemCpuMicrosPerRequest=system / HZ * 1e6 / n, contextSwitchesPerRequest=switches / n,
                  involuntarySwitchesPerRequest=involuntary / n,
                  allocatedBytes=alloc, allocatedBytesPerRequest=(alloc / n if alloc is not None else None),
                  gcPausesInWindow=pauses, redisCommandStatsDelta=delta, redisCommands=commands,
                  redisCommandsPerRequest=commands / n,
                  load1Before=load_before, load1After=float(open("/proc/loadavg").read().split()[0]),
                  otherRunnable=round(other.runnable, 3), otherCpuCores=round(other.cpu_cores, 3), cores=CORES,
                  sliceSettleSeconds=settle)
    json.dump(result, open(base + ".json", "w"), indent=1)
    return result


try:
    main()
finally:
    stop_children()
