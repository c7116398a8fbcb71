#!/usr/bin/env python3
"""Measures genfens' balance margin: for each margin, N openings from `genfens`, judged two ways.

1. An independent judge: Stockfish at a fixed depth scores every opening (white's view).
2. Game results: colour-swapped pairs between two different sanqi players at fixed nodes
   (networks on against the hand-written evaluation), one pair per opening, through
   `sanqi match`. A pair in which the same colour wins both games was decided by the opening,
   not by the players.

usage: docs/clients/genfens_margin.py SANQI [--openings N] [--nodes N] [--sf-depth D]
       [--margins 25,50,100,200,100000] [--seed S] [--out DIR]
Runs two games at a time; nothing else should run on the machine (fixed nodes keep the results
independent of the load, not the time).
"""
import argparse
import collections
import os
import re
import statistics
import subprocess
import sys


def genfens(sanqi, count, seed, margin):
    out = subprocess.run(
        [sanqi, f"genfens {count} seed {seed} book None margin={margin}", "quit"],
        capture_output=True, text=True, check=True).stdout
    return [l[len("info string genfens "):] for l in out.splitlines()
            if l.startswith("info string genfens ")]


def stockfish_scores(fens, depth):
    sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        sf.stdin.write(line + "\n")

    send("uci")
    send("setoption name Threads value 1")
    send("setoption name Hash value 16")
    scores = []
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        score = None
        for line in sf.stdout:
            w = line.split()
            if "score" in w:
                i = w.index("score")
                if w[i + 1] == "cp":
                    score = int(w[i + 2])
                elif w[i + 1] == "mate":
                    score = 10000 if int(w[i + 2]) > 0 else -10000
            if line.startswith("bestmove"):
                break
        white = score if " w " in fen else -score
        scores.append(white)
    send("quit")
    sf.wait()
    return scores


def match(sanqi, fens, nodes, seed, pgn):
    book = pgn + ".epd"
    with open(book, "w") as f:
        f.write("\n".join(fens) + "\n")
    if os.path.exists(pgn):
        os.remove(pgn)
    subprocess.run(
        [sanqi, "match", "--game", "chess",
         "--engine", f"cmd={sanqi}", "name=nnue",
         "--engine", f"cmd={sanqi}", "name=hce", "option.Use NNUE=false",
         "--each", "option.Threads=1", "option.Hash=16",
         "--nodes", str(nodes), "--rounds", str(len(fens)), "--games-per-opening", "2",
         "--openings", book, "--order", "sequential", "--concurrency", "2",
         "--seed", str(seed), "--pgn", pgn, "--quiet"],
        check=True, stdout=subprocess.DEVNULL)
    games = []
    with open(pgn) as f:
        for block in f.read().split("[Event ")[1:]:
            tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
            games.append(tags)
    return games


def summarise(margin, fens, scores, games):
    by_opening = collections.defaultdict(list)
    for g in games:
        by_opening[g.get("FEN", "")].append(g["Result"])
    pairs = [r for r in by_opening.values() if len(r) == 2]
    colour_decided = sum(1 for a, b in pairs if a == b and a in ("1-0", "0-1"))
    white = sum({"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(g["Result"], 0.5) for g in games)
    draws = sum(1 for g in games if g["Result"] == "1/2-1/2")
    a = [abs(s) for s in scores]
    return {
        "margin": margin,
        "openings": len(fens),
        "distinct": len(set(fens)),
        "sf_median_abs": statistics.median(a),
        "sf_within_50": sum(1 for x in a if x <= 50) / len(a),
        "sf_beyond_150": sum(1 for x in a if x > 150) / len(a),
        "sf_beyond_300": sum(1 for x in a if x > 300) / len(a),
        "games": len(games),
        "white_score": white / max(1, len(games)),
        "draws": draws / max(1, len(games)),
        "pairs": len(pairs),
        "colour_decided": colour_decided / max(1, len(pairs)),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sanqi")
    ap.add_argument("--openings", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--sf-depth", type=int, default=12)
    ap.add_argument("--margins", default="25,50,100,200,100000")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="/tmp/genfens-margin")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sanqi = os.path.abspath(args.sanqi)
    rows = []
    for margin in [int(m) for m in args.margins.split(",")]:
        fens = genfens(sanqi, args.openings, args.seed, margin)
        scores = stockfish_scores(fens, args.sf_depth)
        games = match(sanqi, fens, args.nodes, args.seed, f"{args.out}/margin-{margin}.pgn")
        row = summarise(margin, fens, scores, games)
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
    print("| margin (cp) | openings | Stockfish d%d: median abs cp | within 50 | beyond 150 |"
          " beyond 300 | games | White's score | draws | colour-decided pairs |"
          % args.sf_depth)
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        m = "off" if r["margin"] >= 100000 else str(r["margin"])
        print(f"| {m} | {r['openings']} ({r['distinct']} distinct) | {r['sf_median_abs']:.0f} |"
              f" {100 * r['sf_within_50']:.0f}% | {100 * r['sf_beyond_150']:.0f}% |"
              f" {100 * r['sf_beyond_300']:.0f}% | {r['games']} |"
              f" {100 * r['white_score']:.1f}% | {100 * r['draws']:.0f}% |"
              f" {100 * r['colour_decided']:.0f}% of {r['pairs']} |")


if __name__ == "__main__":
    main()
