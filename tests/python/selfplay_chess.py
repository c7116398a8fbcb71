"""python-chess drives sanqi as a real UCI client would: open, read options, play a whole game.

usage: selfplay_chess.py ENGINE [NODES]
Exits 0 only if the game reached a rules ending with every move legal.
python-chess itself raises on an illegal bestmove or a malformed option line.
"""
import sys
import time

import chess
import chess.engine


def main():
    engine_path = sys.argv[1]
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with chess.engine.SimpleEngine.popen_uci(engine_path, timeout=20) as engine:
        opts = engine.options
        for name in ("Hash", "Threads", "MultiPV", "Clear Hash", "Ponder", "Move Overhead",
                     "UCI_Variant", "UCI_Chess960"):
            assert name in opts, f"option {name} missing: {list(opts)}"
        assert engine.id.get("name", "").startswith("sanqi"), engine.id
        engine.configure({"Hash": 8, "Threads": 1})
        board = chess.Board()
        limit = chess.engine.Limit(nodes=nodes)
        while not board.is_game_over(claim_draw=True) and board.ply() < 1000:
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
            assert result.move is not None, "engine gave no move in a live position"
            assert result.move in board.legal_moves, f"illegal {result.move} in {board.fen()}"
            board.push(result.move)
        assert board.is_game_over(claim_draw=True), f"no result after {board.ply()} plies"
        # Analysis with MultiPV reads info lines strictly too.
        infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=3), multipv=2)
        assert len(infos) == 2 and all("score" in i and "pv" in i for i in infos), infos
        # Analysis for a time with MultiPV ("go movetime 400") uses the whole time, less
        # Move Overhead, as Stockfish does, and reports every line.
        engine.configure({"Move Overhead": 10})
        start = time.monotonic()
        infos = engine.analyse(chess.Board(), chess.engine.Limit(time=0.4), multipv=3)
        took = time.monotonic() - start
        assert took >= 0.39, f"analysis for 0.4 s with MultiPV 3 answered after {took:.3f} s"
        assert len(infos) == 3 and all("score" in i and "pv" in i for i in infos), infos
        # Analysis cut off inside an iteration ("go nodes N"): python-chess keeps the last info
        # of each line, and the three lines name three different moves, the first the move the
        # engine would play (the engine reports the other lines as far as the cut-off
        # iteration got, as Stockfish does). 9,000 and 10,000 nodes from the start used to give
        # e2e4 in lines 1 and 2.
        # (A new `game` each time: python-chess sends ucinewgame, so each search starts cold.)
        for n in range(6000, 14001, 1000):
            infos = engine.analyse(chess.Board(), chess.engine.Limit(nodes=n), multipv=3,
                                   game=("cut-off", n))
            firsts = [i["pv"][0] for i in infos]
            assert len(firsts) == 3 and len(set(firsts)) == 3, (n, firsts)
        print(f"game over after {board.ply()} plies: {board.result(claim_draw=True)} "
              f"({board.outcome(claim_draw=True)})")


if __name__ == "__main__":
    main()
