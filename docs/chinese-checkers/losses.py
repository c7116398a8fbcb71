#!/usr/bin/env python3
"""The games one engine did not win in a Chinese-checkers `sanqi match --movelist` file.

usage: losses.py SANQI MOVELIST [NAME]     (NAME: the engine's name in the match, default sanqi)

For each game NAME did not win it replays the moves with `SANQI ... d` (the engine's own rules),
reads the final position's FEN and prints: the game number, NAME's letter, the winner's name and
letter, the winner's seat counted after NAME's, the game's length in plies, how many of NAME's
pieces were still outside its target, and how many pieces of other players stood in the winner's
target (a player wins when its target is full and one piece at least is its own). The triangle of
each cell comes from the FEN's rank lengths alone (ranks 17 to 1: the top triangle D, then
C / hexagon / E on ranks 13 to 10, the hexagon on rank 9, B / hexagon / F on ranks 8 to 5, the
bottom triangle A); letters' targets are the opposite triangles (A-D, B-E, C-F)."""
import subprocess
import sys

OPPOSITE = dict(A='D', D='A', B='E', E='B', C='F', F='C')


def triangle(rank, k, n):
    """The triangle of the k-th cell (from 0, left to right) of a rank with n cells, or None."""
    if rank >= 14:
        return 'D'
    if rank <= 4:
        return 'A'
    if 5 <= rank <= 8:
        side = 9 - rank
        return 'B' if k < side else 'F' if k >= n - side else None
    if 10 <= rank <= 13:
        side = rank - 9
        return 'C' if k < side else 'E' if k >= n - side else None
    return None


def cells(fen):
    """(triangle, occupant) for every cell of a FEN's board."""
    out = []
    for rank, text in zip(range(17, 0, -1), fen.split()[0].split('/')):
        row, digits = [], ''
        for ch in text:
            if ch.isdigit():
                digits += ch
                continue
            row += [None] * int(digits or 0) + [ch]
            digits = ''
        row += [None] * int(digits or 0)
        out += [(triangle(rank, k, len(row)), x) for k, x in enumerate(row)]
    return out


def main():
    binary, movelist = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else 'sanqi'
    games, rows = 0, []
    for line in open(movelist):
        f = line.rstrip('\n').split('\t')
        number, names, points, start, moves = f[0], f[1].split(','), f[3].split(','), f[4], f[5]
        games += 1
        seat = names.index(name)
        if float(points[seat]) == 1.0:
            continue
        letters = start.split()[1]
        out = subprocess.run([binary, '--game', 'chinesecheckers',
                              f'position fen {start} moves {moves}', 'd'],
                             capture_output=True, text=True, check=True).stdout
        end = next(l for l in out.splitlines() if l.startswith('Fen:')).split(None, 1)[1]
        board = cells(end)
        me = letters[seat]
        winners = [i for i, p in enumerate(points) if float(p) == 1.0]
        if winners:
            w = winners[0]
            wl = letters[w]
            foreign = sum(1 for t, x in board if t == OPPOSITE[wl] and x not in (None, wl))
            winner = (names[w], wl, (w - seat) % len(names), foreign)
        else:
            winner = ('-', '-', '-', '-')
        outside = sum(1 for t, x in board if x == me and t != OPPOSITE[me])
        rows.append((number, me, winner[0], winner[1], winner[2], len(moves.split()), outside,
                     winner[3]))
    print(f'{len(rows)} of {games} games not won by {name}')
    print('game letter winner winner_letter winner_seat_after plies own_pieces_outside_target '
          'foreign_pieces_in_winner_target')
    for r in rows:
        print(*r)


if __name__ == '__main__':
    main()
