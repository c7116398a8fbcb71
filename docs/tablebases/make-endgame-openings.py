#!/usr/bin/env python3
"""Endgame openings of 6 to 8 pieces (kings included) for the tablebase match.

sanqi plays itself at a fixed node count from random 8-ply openings (seeded); the first position
of each game with 6 to 8 pieces, no castling rights and the side to move not in check is kept
when sanqi's own search (more nodes) scores it within +-150 cp. One FEN per line on stdout.

    python3 docs/tablebases/make-endgame-openings.py target/release/sanqi 120 > endgames.epd
"""
import random
import sys

import chess
import chess.engine

exe, count = sys.argv[1], int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
rng = random.Random(seed)
engine = chess.engine.SimpleEngine.popen_uci(exe)
engine.configure({"Hash": 16})
seen = set()
games = 0
while len(seen) < count:
    games += 1
    board = chess.Board()
    for _ in range(8):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    while not board.is_game_over(claim_draw=True):
        pieces = chess.popcount(board.occupied)
        if pieces <= 8:
            break
        result = engine.play(board, chess.engine.Limit(nodes=3000))
        board.push(result.move)
    pieces = chess.popcount(board.occupied)
    if board.is_game_over(claim_draw=True) or not 6 <= pieces <= 8:
        continue
    if board.castling_rights or board.is_check():
        continue
    info = engine.analyse(board, chess.engine.Limit(nodes=50000))
    score = info["score"].relative.score(mate_score=100000)
    if abs(score) > 150:
        continue
    fen = board.fen(en_passant="legal")
    if fen not in seen:
        seen.add(fen)
        print(fen, flush=True)
        print(f"{len(seen)} kept of {games} games", file=sys.stderr, flush=True)
engine.quit()
