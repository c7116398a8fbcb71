"""python-chess reads sanqi's win/draw/loss (UCI_ShowWDL) as it reads Stockfish's: info["wdl"]
on every analysed position, per mille summing to 1000, agreeing in sign with the score, and a
certain win for a mate. Usage: wdl_chess.py /path/to/sanqi"""
import sys
import chess
import chess.engine

with chess.engine.SimpleEngine.popen_uci(sys.argv[1]) as engine:
    engine.configure({"UCI_ShowWDL": True})
    cases = [
        chess.Board(),
        chess.Board("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"),  # white far ahead
        chess.Board("4k3/8/8/8/8/8/8/QQQ1K3 b - - 0 1"),  # black to move, far behind
        chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),  # mate in one: Ra8#
    ]
    for board in cases:
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        wdl = info.get("wdl")
        assert wdl is not None, info
        rel = wdl.relative
        w, d, l = rel.wins, rel.draws, rel.losses
        assert w + d + l == 1000, wdl
        score = info["score"].relative
        if score.is_mate():
            assert (w, d, l) == ((1000, 0, 0) if score.mate() > 0 else (0, 0, 1000)), (score, wdl)
        elif score.score() > 300:
            assert w > l and w > 500, (score, wdl)
        elif score.score() < -300:
            assert l > w and l > 500, (score, wdl)
        print(board.fen(), score, w, d, l)
    # Off again: no wdl.
    engine.configure({"UCI_ShowWDL": False})
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=4))
    assert "wdl" not in info, info
print("ok")
