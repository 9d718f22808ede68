#!/usr/bin/env python3
"""Counts the Redis commands the sample app sends per HTTP request, read from MONITOR.

Standard library only. Commands a script runs inside Redis ("[0 lua]") are not counted: what is counted is what
crossed the network. Each row waits for the asynchronous lease release, then draws a line with an ECHO marker.
Usage: commands.py --redis-port P --app-url URL --token T --out FILE
"""
import argparse
import json
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid

p = argparse.ArgumentParser()
p.add_argument("--redis-port", type=int, required=True)
p.add_argument("--app-url", required=True)
p.add_argument("--token", required=True)
p.add_argument("--out", required=True)
a = p.parse_args()


class Monitor:
    def __init__(self, port):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"*1\r\n$7\r\nMONITOR\r\n")
        self.lines = []
        self.cond = threading.Condition()
        self.buf = b""
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            data = self.sock.recv(65536)
            if not data:
                return
            self.buf += data
            while b"\r\n" in self.buf:
                line, self.buf = self.buf.split(b"\r\n", 1)
                with self.cond:
                    self.lines.append(line.decode("utf-8", "replace"))
                    self.cond.notify_all()

    def commands(self, settle=0.3):
        time.sleep(settle)
        marker = "bench-mark-" + uuid.uuid4().hex
        s = socket.create_connection(("127.0.0.1", self.port))
        s.sendall(("*2\r\n$4\r\nECHO\r\n$%d\r\n%s\r\n" % (len(marker), marker)).encode())
        s.recv(1024)
        s.close()
        with self.cond:
            self.cond.wait_for(lambda: any(marker in l for l in self.lines), timeout=10)
            out = []
            for line in self.lines:
                if marker in line:
                    break
                if line == "+OK" or " lua]" in line:
                    continue
                start = line.find('] "')
                name = line[start + 3:line.index('"', start + 3)].lower() if start >= 0 else line
                # The guard's success settlement and release (guard.lua "succeed" / "release") are sent
                # without waiting, like a lease's ZREM.
                if name == "evalsha" and ('"succeed"' in line or '"release"' in line):
                    name = "evalsha(async)"
                # The guard's reservation for a first-seen credential is sent before the lookup and its reply
                # read after the budget decision was sent: the two replies travel together.
                elif name == "evalsha" and '"reserve"' in line:
                    name = "evalsha(reserve)"
                out.append(name)
            self.lines = []
            return out


def call(method, path, token=None):
    req = urllib.request.Request(a.app_url + path, method=method, data=b"" if method == "POST" else None)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


m = Monitor(a.redis_port)
rows = []


def row(name, goal, method, path, token=None, expect=None):
    m.commands()
    status, _ = call(method, path, token)
    cmds = m.commands()
    if expect is not None and status != expect:
        raise SystemExit("%s: expected HTTP %d, got %d" % (name, expect, status))
    sync = [c for c in cmds if c not in ("zrem", "evalsha(async)")]
    overlapped = 1 if "evalsha(reserve)" in sync and len(sync) > 1 else 0
    rows.append({"request": name, "status": status, "commands": cmds, "sent": len(cmds),
                 "synchronous": len(sync), "roundTrips": len(sync) - overlapped, "goal": goal})
    print("%-60s HTTP %d  %d commands %s" % (name, status, len(cmds), cmds))


call("GET", "/s/agents.md", a.token)  # the demo token is now known to this instance
row("GET /s/agents.md, admitted (demo token)", "1", "GET", "/s/agents.md", a.token, 200)
row("POST /s/recall (expensive), admitted (demo token)", "1 + async release", "POST", "/s/recall", a.token, 200)
row("GET /public/ping, anonymous, admitted", "1", "GET", "/public/ping", None, 200)
status, body = call("POST", "/try")
trial = json.loads(body)["token"]
row("GET /s/agents.md, a first-seen credential, admitted", "1 round trip (the reservation travels with the decision)", "GET", "/s/agents.md", trial, 200)
while call("GET", "/public/ping")[0] != 429:
    pass
row("GET /public/ping, anonymous, refused (known over its limit)", "0", "GET", "/public/ping", None, 429)
while call("GET", "/s/agents.md", trial)[0] != 429:
    pass
row("GET /s/agents.md, refused (the key known over its limit)", "0", "GET", "/s/agents.md", trial, 429)
for i in range(60):
    if call("GET", "/s/agents.md", "sp_WRONG%032d" % i)[0] == 429:
        break
row("GET /s/agents.md, refused (the address known blocked)", "0", "GET", "/s/agents.md", a.token, 429)
json.dump(rows, open(a.out, "w"), indent=1)
