#!/usr/bin/env python3
"""Nodes per second with and without Syzygy tables, side by side on one machine.

For each position of an EPD file (one FEN a line), sanqi searches `go nodes N` with one thread
and a fresh 16 MiB table, once with `SyzygyPath` set and once without, alternating which goes
first; prints per-configuration totals: nodes, time, nodes/second and table hits.

    python3 docs/tablebases/endgame-bench.py target/release/sanqi .test-data/syzygy \
        ~/sanqi-data/endgames-6-8.epd 40 1000000
"""
import subprocess
import sys


def run(exe, tables, fens, nodes):
    """One engine process: each search waits for its `bestmove` before the next is sent."""
    eng = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def until(prefix):
        lines = []
        for line in eng.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise SystemExit(f"engine ended before {prefix!r}")

    send("uci")
    until("uciok")
    for option in ["Threads value 1", "Hash value 16"] + (
        [f"SyzygyPath value {tables}"] if tables else []
    ):
        send(f"setoption name {option}")
    total_nodes = total_ms = hits = 0
    for fen in fens:
        send("ucinewgame")
        send("isready")
        until("readyok")
        send(f"position fen {fen}")
        send(f"go nodes {nodes}")
        last = None
        for line in until("bestmove"):
            if line.startswith("info depth") and " nodes " in line:
                last = line
        words = last.split()
        total_nodes += int(words[words.index("nodes") + 1])
        total_ms += int(words[words.index("time") + 1])
        if "tbhits" in words:
            hits += int(words[words.index("tbhits") + 1])
    send("quit")
    eng.wait()
    return total_nodes, total_ms, hits


exe, tables, epd, count, nodes = sys.argv[1:6]
fens = [l.strip() for l in open(epd) if l.strip()][: int(count)]
totals = {"with tables": [0, 0, 0], "without": [0, 0, 0]}
for round_ in range(2):
    order = [("with tables", tables), ("without", None)]
    if round_ % 2:
        order.reverse()
    for name, path in order:
        n, ms, h = run(exe, path, fens, int(nodes))
        t = totals[name]
        t[0] += n
        t[1] += ms
        t[2] += h
print(f"{len(fens)} positions x 2 runs, go nodes {nodes}")
print("| configuration | nodes | time (ms) | nodes/second | tbhits |")
print("|---|---|---|---|---|")
for name, (n, ms, h) in totals.items():
    print(f"| {name} | {n} | {ms} | {n * 1000 // max(ms, 1)} | {h} |")
