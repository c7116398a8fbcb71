#!/usr/bin/env python3
"""How the races of a Chinese-checkers `sanqi match --movelist` file went, game by game.

usage: race.py MOVELIST [NAME]     (NAME: the engine's name in the match, default sanqi)

For every game it replays the moves on its own board (cells as the engine names them: rank y
holds the files 14-y..13 for y <= 13 and 5..22-y for y >= 5, a = 1) and prints: the game number,
NAME's letter, the winner's letter, WIN or loss, the length in plies, NAME's distance sum at the
end (plain hex distance of each of its pieces to the tip of its target, 20 when the target is
full of its own pieces), the same for the winner (or, in a win, the best other player), and the
ply at which NAME and that player first came down to a distance sum of 60 and of 40."""
import sys

# the tip of each letter's target (the far corner of the opposite triangle), as (file, rank)
TIP = dict(A=(5, 17), D=(13, 1), B=(13, 13), E=(5, 5), C=(17, 5), F=(1, 13))


def rank_cells(y):
    xs = set()
    if y <= 13:
        xs |= set(range(14 - y, 14))
    if y >= 5:
        xs |= set(range(5, 23 - y))
    return sorted(xs)


def parse(fen):
    board = {}
    for y, text in zip(range(17, 0, -1), fen.split()[0].split('/')):
        xs, k, digits = rank_cells(y), 0, ''
        for ch in text:
            if ch.isdigit():
                digits += ch
                continue
            k += int(digits or 0)
            digits = ''
            board[(xs[k], y)] = ch
            k += 1
    return board


def cell(name):
    return (ord(name[0]) - 96, int(name[1:]))


def distance(a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    return max(abs(dx), abs(dy), abs(dx + dy))


def distance_sum(board, letter):
    return sum(distance(c, TIP[letter]) for c, p in board.items() if p == letter)


def main():
    name = sys.argv[2] if len(sys.argv) > 2 else 'sanqi'
    for line in open(sys.argv[1]):
        f = line.rstrip('\n').split('\t')
        game, names, result, fen, moves = int(f[0]), f[1].split(','), f[2], f[4], f[5].split()
        letters = fen.split()[1]
        me = letters[names.index(name)]
        winner = letters[int(result.split()[1]) - 1]
        board = parse(fen)
        sums = []
        for m in moves:
            split = next(i for i in range(1, len(m)) if m[i].isalpha())
            board[cell(m[split:])] = board.pop(cell(m[:split]))
            sums.append({x: distance_sum(board, x) for x in letters})
        other = winner if winner != me else min(
            (x for x in letters if x != me), key=lambda x: sums[-1][x])

        def first(x, level):
            return next((k + 1 for k, s in enumerate(sums) if s[x] <= level), None)

        print(game, me, winner, 'WIN' if winner == me else 'loss', len(moves),
              'sums', sums[-1][me], sums[-1][other],
              'at60', first(me, 60), first(other, 60), 'at40', first(me, 40), first(other, 40))


main()
