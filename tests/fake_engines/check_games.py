#!/usr/bin/env python3
"""Independent check of games refereed by `sanqi match`, with python-chess and pyffish.

usage: check_games.py RECORDS [PGN]
RECORDS: one game a line (variant: chess, chess960, xiangqi), `variant|start fen|moves (canonical, space separated)|termination|result`
(termination: rules, adjudication, illegal, time, crash, hang; result: 1-0, 0-1, 1/2-1/2).
Every move must be legal; games ended by rule must be over by the oracle's rules with the same
result. With PGN (chess), the PGN must parse and give the same moves as the records.
Prints one line per problem and exits 1 if there is any.
"""
import sys

problems = []


def xq_ranks_from_one(mv):
    # ICCS 0-9 to Fairy-Stockfish 1-10: h2e2 -> h3e3.
    import re
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", mv)
    if not m:
        return None
    return "%s%d%s%d" % (m.group(1), int(m.group(2)) + 1, m.group(3), int(m.group(4)) + 1)


def check_chess(n, fen, moves, term, result, chess960=False):
    import chess
    board = chess.Board(fen, chess960=chess960)
    for mv in moves:
        try:
            move = chess.Move.from_uci(mv)
        except ValueError:
            problems.append("game %d: unreadable move %s" % (n, mv))
            return
        if move not in board.legal_moves:
            problems.append("game %d: illegal move %s in %s" % (n, mv, board.fen()))
            return
        board.push(move)
    if term == "rules":
        outcome = board.outcome(claim_draw=True)
        if outcome is None:
            problems.append("game %d: ended by rule but python-chess sees no end: %s" % (n, board.fen()))
        elif outcome.result() != result:
            problems.append("game %d: result %s, python-chess %s (%s)" % (n, result, outcome.result(), outcome.termination))
    elif term == "adjudication":
        pass
    elif board.outcome() is not None:
        problems.append("game %d: %s after the game was already over" % (n, term))


def check_xiangqi(n, fen, moves, term, result):
    import pyffish
    played = []
    for mv in moves:
        fsf = xq_ranks_from_one(mv)
        legal = pyffish.legal_moves("xiangqi", fen, played)
        if fsf not in legal:
            problems.append("game %d: illegal move %s after %s" % (n, mv, " ".join(played)))
            return
        played.append(fsf)
    if term == "rules":
        legal = pyffish.legal_moves("xiangqi", fen, played)
        ended = not legal
        if not ended:
            imm, _ = pyffish.is_immediate_game_end("xiangqi", fen, played)
            opt, _ = pyffish.is_optional_game_end("xiangqi", fen, played)
            ended = imm or opt
        if not ended:
            problems.append("game %d: ended by rule but pyffish sees no end" % n)
        elif not legal:
            # No legal move: the side to move loses in xiangqi.
            stm_red = (len(played) % 2 == 0) == (fen.split()[1] in ("w", "r"))
            expect = "0-1" if stm_red else "1-0"
            if result != expect:
                problems.append("game %d: result %s, expected %s (no legal move)" % (n, result, expect))


def main():
    records = open(sys.argv[1]).read().splitlines()
    games = []
    for n, line in enumerate(records, 1):
        if not line.strip():
            continue
        variant, fen, moves, term, result = line.split("|")
        moves = moves.split()
        games.append(moves)
        if variant in ("chess", "chess960"):
            check_chess(n, fen, moves, term, result, chess960=variant == "chess960")
        elif variant == "xiangqi":
            check_xiangqi(n, fen, moves, term, result)
    if len(sys.argv) > 2:
        import chess.pgn
        with open(sys.argv[2]) as f:
            k = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors:
                    problems.append("pgn game %d: %s" % (k + 1, game.errors))
                got = [m.uci() for m in game.mainline_moves()]
                if k < len(games) and got != games[k]:
                    problems.append("pgn game %d: moves %s differ from %s" % (k + 1, got, games[k]))
                k += 1
            if k != len(games):
                problems.append("pgn has %d games, records %d" % (k, len(games)))
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
