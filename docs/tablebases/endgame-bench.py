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
    lines = ["uci", "setoption name Threads value 1", "setoption name Hash value 16"]
    if tables:
        lines.append(f"setoption name SyzygyPath value {tables}")
    for fen in fens:
        lines += ["ucinewgame", f"position fen {fen}", f"go nodes {nodes}"]
    lines.append("quit")
    out = subprocess.run([exe], input="\n".join(lines) + "\n", capture_output=True, text=True).stdout
    total_nodes = total_ms = hits = 0
    last = None
    for line in out.splitlines():
        if line.startswith("info depth") and " nodes " in line:
            last = line
        if line.startswith("bestmove") and last:
            words = last.split()
            total_nodes += int(words[words.index("nodes") + 1])
            total_ms += int(words[words.index("time") + 1])
            if "tbhits" in words:
                hits += int(words[words.index("tbhits") + 1])
            last = None
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
