#!/usr/bin/env python3
"""How much search `go movetime T` gives, on positions of a Chinese-checkers match.

usage: movetime-nodes.py SANQI MOVELIST T

Takes the first six games of a `sanqi match --movelist` file and, in each, the positions after
plies 20, 50, 80, ... (up to five plies before its end); searches each alone with a fresh engine
(`go movetime T`) and prints the mean nodes and time of the last `info depth` line (the last
iteration reported) over all of them. Run it with nothing else on the machine."""
import subprocess
import sys


def last_info(binary, fen, moves, movetime):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for c in ['uci', 'setoption name UCI_Variant value chinesecheckers',
              f'position fen {fen} moves {" ".join(moves)}', f'go movetime {movetime}']:
        p.stdin.write(c + '\n')
    p.stdin.flush()
    last = None
    for out in p.stdout:
        if out.startswith('info depth') and ' nodes ' in out:
            last = out.split()
        if out.startswith('bestmove'):
            break
    p.stdin.write('quit\n')
    p.stdin.flush()
    p.wait()
    return int(last[last.index('nodes') + 1]), int(last[last.index('time') + 1])


def main():
    binary, movelist, movetime = sys.argv[1], sys.argv[2], int(sys.argv[3])
    results = []
    for line in open(movelist).read().splitlines()[:6]:
        f = line.split('\t')
        fen, moves = f[4], f[5].split()
        for ply in range(20, len(moves) - 5, 30):
            results.append(last_info(binary, fen, moves[:ply], movetime))
    n = len(results)
    print(f'{n} positions: mean nodes {sum(r[0] for r in results) // n}, '
          f'mean time of the last info {sum(r[1] for r in results) // n} ms')


main()
