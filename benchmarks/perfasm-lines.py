#!/usr/bin/env python3
# Where the CPU time of a JMH benchmark goes, by Java source line, on a machine without async-profiler or hsdis:
# JMH's perfasm profiler with the software event cpu-clock saves perf's samples (instruction addresses) and the
# JVM's PrintAssembly log, whose debug-info comments name, for each address of compiled code, the inlined method
# and line. Each sample of compiled code is charged to the nearest annotated address at or below it (the line
# being executed, give or take the sampling skid), then summed by line (self) and by method (inclusive).
#
#   java -jar benchmarks/target/benchmarks.jar 'AlgorithmDecisionBenchmark.limiterInMemory' -p algorithm=sliding-window \
#     -p keys=1 -p limits=open -f 1 -wi 2 -w 1 -i 3 -r 2 \
#     -prof 'perfasm:events=cpu-clock;savePerf=true;savePerfToFile=/tmp/p.perf;saveLog=true;saveLogToFile=/tmp/p.log'
#   benchmarks/perfasm-lines.py /tmp/p.log /tmp/p.perf [fraction of the run to skip as warm-up, 0.4] [rows, 40]
import bisect
import collections
import re
import signal
import sys

# piped into head: stop quietly
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
log, perf = sys.argv[1], sys.argv[2]
skip = float(sys.argv[3]) if len(sys.argv) > 3 else 0.4  # fraction of the run to skip (warm-up)
methods = []  # (start, end, name, [(addr, frames)])
cur = None
hdr = re.compile(r'Compiled method \((c1|c2)\)\s+\d+\s+\d+\s+\S*\s*\d+\s+(\S+)')
mc = re.compile(r'main code\s+\[0x([0-9a-f]+),0x([0-9a-f]+)\]')
ad = re.compile(r'^\s*(?:[0-9.]+%)?\s*0x([0-9a-f]+):\s*(.*)$')
fr = re.compile(r';\s+-\s+(\S+)::(\S+)@(-?\d+)\s+\(line (\d+)\)')
pending_addr = None; pending_frames = []
def flush():
    global pending_addr, pending_frames
    if cur is not None and pending_addr is not None and pending_frames:
        cur[3].append((pending_addr, pending_frames))
    pending_addr = None; pending_frames = []
for line in open(log, errors='replace'):
    m = hdr.search(line)
    if m:
        flush()
        cur = [0, 0, m.group(1) + ' ' + m.group(2), []]
        methods.append(cur)
        continue
    if cur is None: continue
    m = mc.search(line)
    if m and cur[0] == 0:
        cur[0] = int(m.group(1), 16); cur[1] = int(m.group(2), 16); continue
    m = ad.match(line)
    if m:
        body = m.group(2)
        if body.startswith(';'):
            flush(); pending_addr = int(m.group(1), 16)
        else:
            flush()
        continue
    m = fr.search(line)
    if m and pending_addr is not None:
        pending_frames.append(m.group(1).split('.')[-1].replace('$', '$') + '.' + m.group(2) + ':' + m.group(4))
flush()
methods = [m for m in methods if m[0]]
for m in methods: m[3].sort()
samples = []
for line in open(perf):
    p = line.split()
    if len(p) < 4: continue
    try:
        t = float(p[0].rstrip(':')); ip = int(p[2], 16)
    except ValueError: continue
    samples.append((t, ip, ' '.join(p[3:])))
t0, t1 = samples[0][0], samples[-1][0]
cut = t0 + skip * (t1 - t0)
selfc = collections.Counter(); incl = collections.Counter(); where = collections.Counter()
n = 0
for t, ip, sym in samples:
    if t < cut: continue
    n += 1
    if 'perf-' not in sym:
        where['native ' + sym.split(' (')[0]] += 1; continue
    # the newest compile that contains ip (later compiles reuse addresses)
    best = None
    for j in range(len(methods) - 1, -1, -1):
        m = methods[j]
        if m[0] <= ip < m[1]: best = m; break
    if best is None:
        where['jit ?'] += 1; continue
    where[best[2]] += 1
    annos = best[3]
    a = bisect.bisect_right([x[0] for x in annos], ip) - 1
    if a < 0: selfc[best[2] + ' <prologue>'] += 1; continue
    frames = annos[a][1]
    selfc[frames[0]] += 1
    for f in set(x.split(':')[0] for x in frames): incl[f] += 1
top = int(sys.argv[4]) if len(sys.argv) > 4 else 40
print('samples (after warm-up cut):', n)
print("--- by code blob"); [print(f'{100*v/n:6.2f}% {k}') for k, v in where.most_common(12)]
print('--- self by source line (innermost)'); [print(f'{100*v/n:6.2f}% {k}') for k, v in selfc.most_common(top)]
print('--- inclusive by method'); [print(f'{100*v/n:6.2f}% {k}') for k, v in incl.most_common(top)]
