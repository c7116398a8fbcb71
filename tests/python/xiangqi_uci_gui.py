"""A xiangqi GUI that drives engines over plain UCI the way Pikafish is driven (no UCI_Variant;
`position fen <xiangqi FEN> moves <ICCS>...`, or `position startpos` with `--game xiangqi`), each
bestmove judged legal by pyffish (Fairy-Stockfish's rules). Usage: xiangqi_uci_gui.py SANQI"""
import subprocess
import sys

import pyffish

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def to_ffish(m):  # ICCS ranks 0-9 -> Fairy-Stockfish ranks 1-10
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def play(args, start_cmd, plies):
    p = subprocess.Popen([sys.argv[1]] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            assert line, "engine closed its output"
            if line.startswith("info string error"):
                raise AssertionError(line)
            if line.startswith(prefix):
                return line.strip()

    send("uci")
    until("uciok")
    send("isready")
    until("readyok")
    send("ucinewgame")
    moves = []
    for _ in range(plies):
        legal = pyffish.legal_moves("xiangqi", START, [to_ffish(m) for m in moves])
        if not legal:
            break
        send(f"{start_cmd} moves {' '.join(moves)}" if moves else start_cmd)
        send("go nodes 3000")
        best = until("bestmove").split()[1]
        assert to_ffish(best) in legal, (moves, best)
        moves.append(best)
    send("quit")
    p.wait(timeout=10)
    return moves


a = play([], f"position fen {START}", 40)
b = play(["--game", "xiangqi"], "position startpos", 40)
print(len(a), len(b), "plies, every move legal by pyffish")
