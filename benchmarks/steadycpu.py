#!/usr/bin/env python3
"""The sample app's CPU time per request in steady state: every mode's app runs side by side, each is loaded
(alternately, wrk -c32) until its JIT compilers use less than 3 % of its CPU, then the modes are measured in
alternated rounds on the same JVMs, at each --conns. CPU per request = utime + stime of the app's threads
except the compiler threads (reported apart, "jit") / the requests wrk completed.

Why apart from benchmarks/run: a JVM started per round and warmed for 10 s is still compiling the request
path (C1/C2 threads and interpreted frames were a third of the app's CPU after 30 s on a loaded 2-core
machine), and the limiter's longer request path takes longer to compile, which inflates its ratio.

  benchmarks/steadycpu.py --jar sample-app/target/sample-app-0.1.0-SNAPSHOT.jar --modes off,memory
  benchmarks/steadycpu.py --jar off=base.jar --jar memory@base=base.jar --jar memory@new=new.jar \
      --modes off,memory@base,memory@new --rounds 4
  (redis mode: --modes off,memory,redis --redis-port 6379, a redis-server of your own on that port)

A mode is off, memory or redis, optionally @label to compare jars; the first mode is the baseline of the
ratios. Needs wrk and python3; --jfr DIR records a JFR profile (settings=profile) of each app's first round."""
import argparse, os, re, socket, subprocess, sys, time, urllib.request, statistics

TOKEN = "sp_DEMO0000000000000000000000000001"
HZ = os.sysconf("SC_CLK_TCK")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def tcpu(pid):
    comp = other = 0.0
    for t in os.listdir(f"/proc/{pid}/task"):
        try: st = open(f"/proc/{pid}/task/{t}/stat").read()
        except Exception: continue
        name = st[st.index("(")+1:st.rindex(")")]
        f = st.rsplit(")", 1)[1].split()
        v = (int(f[11]) + int(f[12])) / HZ
        if "CompilerThre" in name: comp += v
        else: other += v
    return comp, other

def wrk(url, conns, secs):
    threads = 2 if conns >= 2 else 1
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{conns}", f"-d{secs}s", "-H", f"Authorization: Bearer {TOKEN}", url],
                         capture_output=True, text=True).stdout
    req = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return req, rps, int(non2xx.group(1)) if non2xx else 0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jar", action="append", required=True, help="JAR for every mode, or MODE=JAR")
    ap.add_argument("--modes", default="off,memory")
    ap.add_argument("--rounds", type=int, default=6); ap.add_argument("--measure", type=int, default=8)
    ap.add_argument("--conns", default="32,4"); ap.add_argument("--redis-port", type=int, default=0)
    ap.add_argument("--settle-max", type=int, default=240); ap.add_argument("--path", default="/s/agents.md"); ap.add_argument("--jfr", default=None)
    a = ap.parse_args()
    jars = {}
    for j in a.jar:
        if "=" in j: m, p = j.split("=", 1); jars[m] = p
        else: jars["*"] = j
    modes = a.modes.split(","); conns = [int(c) for c in a.conns.split(",")]
    apps = {}
    for mode in modes:
        base = mode.split("@")[0]
        port = free_port()
        args = [f"--server.port={port}", "--logging.level.root=WARN",
                "--limiter.budgets.standard.windows.minute.limit=1000000000",
                "--limiter.budgets.standard.windows.hour.limit=60000000000"]
        if base == "off": args.append("--limiter.enabled=false")
        elif base == "memory": args.append("--limiter.store=memory")
        elif base == "redis": args += ["--spring.profiles.active=redis", "--spring.data.redis.host=127.0.0.1", f"--spring.data.redis.port={a.redis_port}"]
        jar = jars.get(mode, jars.get("*"))
        p = subprocess.Popen(["java", "-Xms512m", "-Xmx512m", "-jar", jar] + args,
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        apps[mode] = (p, f"http://127.0.0.1:{port}")
    try:
        for mode, (p, url) in apps.items():
            for _ in range(300):
                try: urllib.request.urlopen(url + "/actuator/health", timeout=1); break
                except Exception: time.sleep(0.3)
        # warm: alternate 4 s loads until each app's compilers used < 3 % of its CPU in its last load
        quiet = {m: False for m in modes}; t0 = time.time()
        while not all(quiet.values()) and time.time() - t0 < a.settle_max:
            for mode in modes:
                if quiet[mode]: continue
                p, url = apps[mode]
                k0, o0 = tcpu(p.pid); wrk(url + a.path, 32, 4); k1, o1 = tcpu(p.pid)
                quiet[mode] = (k1 - k0) < 0.03 * ((k1 - k0) + (o1 - o0))
        print(f"warm-up {time.time()-t0:.0f}s, quiet: {quiet}", flush=True)
        res = {}
        for r in range(a.rounds):
            for i in range(len(modes)):
                mode = modes[(i + r) % len(modes)]
                p, url = apps[mode]
                if a.jfr and r == 0:
                    subprocess.run(["jcmd", str(p.pid), "JFR.start", "settings=profile", f"filename={a.jfr}/{mode}.jfr", "name=m"], capture_output=True)
                for c in conns:
                    load = open("/proc/loadavg").read().split()[0]
                    k0, o0 = tcpu(p.pid)
                    req, rps, bad = wrk(url + a.path, c, a.measure)
                    k1, o1 = tcpu(p.pid)
                    us = (o1 - o0) * 1e6 / req; jit = (k1 - k0) * 1e6 / req
                    res.setdefault((mode, c), []).append((us, rps, jit))
                    if a.jfr and r == 0: open(f"{a.jfr}/{mode}-c{c}.req", "w").write(str(req))
                    print(f"round {r+1} {mode:10s} c{c:<3d} {us:8.1f} us/req (+jit {jit:6.1f}) {rps:9.0f} req/s non2xx={bad} load={load}", flush=True)
                if a.jfr and r == 0:
                    subprocess.run(["jcmd", str(p.pid), "JFR.stop", "name=m"], capture_output=True)
        print("\nsummary (best / median), CPU without the JIT compiler threads:")
        for c in conns:
            base = res.get((modes[0], c))
            for mode in modes:
                v = res[(mode, c)]
                ub = min(x[0] for x in v); um = statistics.median(x[0] for x in v)
                rb = max(x[1] for x in v); rm = statistics.median(x[1] for x in v)
                jm = statistics.median(x[2] for x in v)
                bb = min(x[0] for x in base); bm = statistics.median(x[0] for x in base)
                brb = max(x[1] for x in base); brm = statistics.median(x[1] for x in base)
                print(f"c{c:<3d} {mode:10s} cpu best {ub:7.1f} med {um:7.1f} us (jit med {jm:5.1f}) | rps best {rb:7.0f} med {rm:7.0f}"
                      f" | cpu x{ub/bb:.2f} best x{um/bm:.2f} med | rps {rb/brb:.2f} best {rm/brm:.2f} med", flush=True)
    finally:
        for p, _ in apps.values(): p.terminate()
        for p, _ in apps.values(): p.wait()

main()
