#!/usr/bin/env python3
"""Fault run of sanqi-web: many tabs playing at once while engines are killed and hostile clients
send bad, huge, slow and silent requests. Reports whether any tab lost a move or a game, and the
server's threads, descriptors and child processes during and after the run against its bounds.
Not part of CI (a few minutes; run it on a quiet machine).

    docs/soak/web_fault.py [--tabs 40] [--seconds 240] [--kill-every 0.5] [--idle 300]

It starts target/release/sanqi-web (build it first: cargo build --release --workspace) on a free
port with target/release/sanqi as its engine. Python 3 standard library only; Linux (/proc).
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The server's bounds (web/src/server.rs, web/src/http.rs).
MAX_ENGINES = 16
WORKERS = 32
QUEUE = 64
READ_TIMEOUT = 10

lock = threading.Lock()
tally = {
    "tab requests": 0,
    "tab answers 200": 0,
    "tab answers 503 (busy, retried)": 0,
    "tab answers 5xx engine (retried)": 0,
    "tab connection errors (retried)": 0,
    "games started": 0,
    "games finished": 0,
    "moves played": 0,
    "engines killed": 0,
    "hostile requests": 0,
    "hostile answered as expected": 0,
    "hostile refused busy (503)": 0,
    "hostile answered otherwise": 0,
    "LOST": 0,
}
problems = []
peak = {"threads": 0, "fds": 0, "children": 0, "zombies": 0}


def count(key, n=1):
    with lock:
        tally[key] += n


def problem(text):
    with lock:
        tally["LOST"] += 1
        if len(problems) < 50:
            problems.append(text)


def children(pid):
    """(pid, state) of each process whose parent is `pid`."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 2 and fields[1] == str(pid):
            out.append((int(entry), fields[0]))
    return out


def measure(pid):
    try:
        threads = len(os.listdir(f"/proc/{pid}/task"))
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None
    kids = children(pid)
    return {
        "threads": threads,
        "fds": fds,
        "children": len(kids),
        "zombies": sum(1 for _, s in kids if s == "Z"),
    }


class Tab:
    """One browser tab: plays games over its own keep-alive connection and keeps its own record
    of the moves, which the server's state must match after every answer."""

    def __init__(self, port, seed, deadline, movetime):
        self.port = port
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.movetime = movetime
        self.conn = None
        self.game = None
        self.record = []

    def call(self, method, path, body=None):
        """One request; (status, json) or (None, None) on a connection error."""
        count("tab requests")
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if data else {}
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            text = r.read()
            if r.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            try:
                return r.status, json.loads(text)
            except ValueError:
                return r.status, None
        except (OSError, http.client.HTTPException):
            count("tab connection errors (retried)")
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return None, None

    def settle(self, status):
        if status == 503:
            count("tab answers 503 (busy, retried)")
        elif status is not None and status >= 500:
            count("tab answers 5xx engine (retried)")
        time.sleep(0.05 + self.rng.random() * 0.2)

    def state(self):
        """The game's state, asked until it comes (a dead engine is restarted by the server)."""
        for _ in range(200):
            status, v = self.call("GET", f"/api/state?game={self.game}")
            if status == 200:
                count("tab answers 200")
                return v
            if status == 404:
                problem(f"game {self.game} vanished (404) with {len(self.record)} moves")
                return None
            self.settle(status)
        problem(f"game {self.game}: no state after 200 tries")
        return None

    def check(self, v, pending=None):
        """The server's move list must be the record, or the record plus the one move asked for
        when the answer was lost (`pending`, or any one move for /api/go)."""
        got = [m["move"] for m in v["moves"]]
        if got == self.record:
            return True
        if pending is not None and len(got) == len(self.record) + 1 and got[:-1] == self.record:
            if pending == "*" or got[-1] == pending:
                self.record = got
                count("moves played")
                return True
        problem(f"game {self.game}: server has {got[-3:]} ({len(got)}), tab has "
                f"{self.record[-3:]} ({len(self.record)})")
        self.record = got
        return False

    def new_game(self):
        players = self.rng.choice([2, 3, 4, 6])
        seats = [{"human": i == 0 and self.rng.random() < 0.5,
                  "skill": self.rng.randint(0, 20),
                  "movetime": self.movetime} for i in range(players)]
        body = {"players": players, "seats": seats, "previous": self.game}
        for _ in range(200):
            status, v = self.call("POST", "/api/new", body)
            if status == 200:
                count("tab answers 200")
                count("games started")
                self.game, self.record = v["game"], []
                return v
            self.settle(status)
        problem("no new game after 200 tries")
        return None

    def run(self):
        v = self.new_game()
        while v is not None and time.time() < self.deadline:
            if v["winner"] or len(self.record) > 400:
                if v["winner"]:
                    count("games finished")
                v = self.new_game()
                continue
            roll = self.rng.random()
            if roll < 0.03:  # a reload: the state again
                v = self.state()
                if v is not None:
                    self.check(v)
                continue
            if roll < 0.06 and self.record:  # Undo
                status, w = self.call("POST", "/api/undo", {"game": self.game})
                if status == 200:
                    count("tab answers 200")
                    got = [m["move"] for m in w["moves"]]
                    if len(got) < len(self.record) and got == self.record[:len(got)]:
                        self.record = got
                    else:
                        problem(f"game {self.game}: undo gave {len(got)} moves of "
                                f"{len(self.record)}")
                        self.record = got
                    v = w
                    continue
                self.settle(status)
                v = self.state()
                if v is not None:
                    got = [m["move"] for m in v["moves"]]
                    if got == self.record[:len(got)]:
                        self.record = got
                    else:
                        self.check(v)
                continue
            if v["humanToMove"]:
                if v["mustPass"]:
                    mv = "0000"
                else:
                    status, h = self.call("POST", "/api/hint", {"game": self.game})
                    if status != 200:
                        self.settle(status)
                        v = self.state()
                        if v is not None:
                            self.check(v)
                        continue
                    count("tab answers 200")
                    mv = h["move"]
                status, w = self.call("POST", "/api/move", {"game": self.game, "move": mv})
                pending = mv
            else:
                status, w = self.call("POST", "/api/go", {"game": self.game})
                pending = "*"
                if status == 200:
                    mv = w["played"]["move"]
                    w = w["state"]
            if status == 200:
                count("tab answers 200")
                self.record.append(mv)
                count("moves played")
                self.check(w)
                v = w
            else:
                self.settle(status)
                v = self.state()
                if v is not None:
                    self.check(v, pending)
        # The last game as the server has it now.
        if self.game is not None:
            v = self.state()
            if v is not None:
                self.check(v)
        if self.conn is not None:
            self.conn.close()


def raw(port, data, read=True, timeout=15):
    """Sends bytes on a fresh connection; the status code of the answer, or None."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass
        if not read:
            return None
        buf = b""
        while b"\r\n" not in buf:
            try:
                chunk = s.recv(4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
        parts = buf.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    finally:
        s.close()


def post_bytes(path, body):
    body = body.encode() if isinstance(body, str) else body
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


HOSTILE = [
    (b"\x00\xff\xfegarbage\r\n\r\n", (400,)),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n", (431,)),
    (b"POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", (413,)),
    (b"POST /api/new HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", (501,)),
    (post_bytes("/api/new", '{"players":2,"seats":[{"movetime":"500"}]}'), (400,)),
    (post_bytes("/api/new", '{"players":2,"seats":[{"movetime":-5}]}'), (400,)),
    (post_bytes("/api/new", '{"players":2,"seats":[{"skill":1.5}]}'), (400,)),
    (post_bytes("/api/new", '{"players":2,"seats":"x"}'), (400,)),
    (post_bytes("/api/new", '{"players":7}'), (400,)),
    (post_bytes("/api/new", '{"players":2'), (400,)),
    (post_bytes("/api/new", b'\xff\xfe'), (400,)),
    (post_bytes("/api/move", '{"game":"nope","move":"k3k5"}'), (404,)),
    (post_bytes("/api/move", '{"game":["x"]}'), (400,)),
    (post_bytes("/api/frobnicate", '{}'), (404,)),
    (b"DELETE /api/new HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", (405,)),
    (b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", (404,)),
]


def hostile(port, deadline, idle):
    rng = random.Random(7)
    rounds = 0
    while time.time() < deadline:
        rounds += 1
        data, want = rng.choice(HOSTILE)
        try:
            status = raw(port, data)
        except OSError:
            status = None
        count("hostile requests")
        if status in want:
            count("hostile answered as expected")
        elif status == 503:  # every worker busy and the queue full: the bound, not a fault
            count("hostile refused busy (503)")
        else:
            count("hostile answered otherwise")
            with lock:
                if len(problems) < 50:
                    problems.append(f"hostile {data[:40]!r}: {status}, expected {want}")
        if rounds % 200 == 0:
            flood(port, idle, rng)
        time.sleep(0.01)


def flood(port, n, rng):
    """`n` connections that send nothing or half a request and stay open past the read timeout."""
    socks = []
    for i in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i % 2:
                s.sendall(b"POST /api/new HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"pla")
            socks.append(s)
        except OSError:
            break
    time.sleep(READ_TIMEOUT + 2)
    for s in socks:
        s.close()


def killer(server_pid, deadline, every):
    rng = random.Random(11)
    while time.time() < deadline:
        time.sleep(every)
        kids = [p for p, s in children(server_pid) if s != "Z"]
        if kids:
            try:
                os.kill(rng.choice(kids), signal.SIGKILL)
                count("engines killed")
            except OSError:
                pass


def sampler(server_pid, stop):
    while not stop.is_set():
        m = measure(server_pid)
        if m:
            with lock:
                for k in peak:
                    peak[k] = max(peak[k], m[k])
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tabs", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=240)
    ap.add_argument("--kill-every", type=float, default=0.5)
    ap.add_argument("--idle", type=int, default=300, help="silent connections per flood")
    ap.add_argument("--movetime", type=int, default=20)
    ap.add_argument("--web", default=os.path.join(ROOT, "target/release/sanqi-web"))
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/sanqi"))
    a = ap.parse_args()

    server = subprocess.Popen([a.web, "--port", "0", "--engine", a.engine],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    port = int(line.split("127.0.0.1:")[1].split("/")[0])
    time.sleep(0.3)
    base = measure(server.pid)
    print(f"server pid {server.pid} on port {port}; at start {base}")
    deadline = time.time() + a.seconds
    stop = threading.Event()
    started = time.time()
    threads = [threading.Thread(target=sampler, args=(server.pid, stop), daemon=True)]
    tabs = [Tab(port, i, deadline, a.movetime) for i in range(a.tabs)]
    threads += [threading.Thread(target=t.run) for t in tabs]
    threads.append(threading.Thread(target=hostile, args=(port, deadline, a.idle)))
    threads.append(threading.Thread(target=killer, args=(server.pid, deadline, a.kill_every)))
    for t in threads:
        t.start()
    for t in threads[1:]:
        t.join()
    elapsed = time.time() - started
    # Every connection of ours is closed; the server's own read timeout ends any it still holds.
    time.sleep(READ_TIMEOUT + 2)
    stop.set()
    after = measure(server.pid)
    status = None
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/")
        status = c.getresponse().status
    except OSError:
        pass
    engines = [p for p, _ in children(server.pid)]
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=10)
    time.sleep(2)
    left = [p for p in engines if os.path.exists(f"/proc/{p}")]

    bound_threads = 1 + WORKERS + MAX_ENGINES  # main (accepts), workers, a reader per engine
    # std streams and listener; sockets held by workers, the queue and accept; two pipes per
    # engine, seven descriptors while one starts (both ends of its pipes, /dev/null for its
    # stderr, the spawn's error pipe); engines started and starting are at most MAX_ENGINES.
    bound_fds = 4 + (WORKERS + QUEUE + 1) + 7 * MAX_ENGINES
    print(f"ran {elapsed:.0f} s with {a.tabs} tabs, an engine killed every {a.kill_every} s, "
          f"{a.idle} silent connections per flood")
    for k, v in tally.items():
        print(f"  {k}: {v}")
    print(f"  peak during the run: {peak} (bounds: threads {bound_threads}, descriptors "
          f"{bound_fds}, children {MAX_ENGINES}, zombies 0 after reaping)")
    print(f"  after the run ({READ_TIMEOUT + 2} s idle): {after}; GET / -> {status}")
    print(f"  engines left after SIGTERM to the server: {len(left)}")
    for p in problems:
        print("  problem:", p)
    ok = (tally["LOST"] == 0 and tally["hostile answered otherwise"] == 0 and status == 200 and not left and after is not None
          and peak["threads"] <= bound_threads and peak["fds"] <= bound_fds
          and peak["children"] <= MAX_ENGINES and after["zombies"] == 0
          and after["threads"] <= bound_threads)
    print("web fault run:", "nothing lost, within bounds" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
