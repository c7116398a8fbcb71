//! The chase rule of xiangqi (Asian rules, as Fairy-Stockfish implements them for its `xiangqi`
//! variant and pyffish reports them): which pieces a move *chases*, and which side chased
//! perpetually through a repeated cycle.
//!
//! A move by side X chases a piece of side V (the side to move after it) when, after the move:
//! - **direct attack**: the moved piece (not the general, not a soldier) attacks the piece; a
//!   chariot or cannon that moved along a line does not count the pieces on that line (only new
//!   attacks count);
//! - **discovered attack**: an X horse whose leg was the vacated square, an X elephant whose eye
//!   it was, an X chariot or cannon on the rank or file of the vacated square, or an X cannon on
//!   the rank or file of the destination (a new screen) attacks the piece now but did not with
//!   the occupancy before the move;
//!
//! and the attacked piece is a chaseable target: not the general, not a soldier on its own side
//! of the river (one that crossed can be chased), and
//! - a horse or cannon attacking a **chariot** always chases it, protected or not;
//! - an elephant or advisor attacking a chariot, cannon or horse always chases it;
//! - otherwise an attack on a piece of the **same kind** is mutual and does not count, unless
//!   the target is pinned (for horses: unless the target horse really cannot capture back, its
//!   leg being blocked);
//! - otherwise the target is chased when it is **unprotected**: no V piece (pinned ones do not
//!   count, and a soldier, advisor, elephant or general only inside its own area) could take
//!   back on its square once the attacker took it; a general whose recapture would face the X
//!   general along the file does not protect either.
//!
//! Two more cases count as chases, as in Fairy-Stockfish: when the move **pins** a V piece
//! anew, every V piece (not the general or an uncrossed soldier) that the pinned piece was
//! protecting and that an unpinned X piece attacks is chased; and when the move creates a new
//! discovered-check threat (an X piece that now screens an X chariot, cannon or horse from the
//! V general), the V pieces that screen piece attacks are chased unless the general could take
//! it back safely.
//!
//! "Pinned" are the pieces (of either side) that alone screen the V general from an X chariot,
//! a horse's leg, or either of two pieces between an X cannon and the V general, and a lone V
//! piece on the X general's file when the V general is on it too (flying general).
//!
//! Attack geometry here ignores the areas the advisor, elephant and general are confined to
//! (an elephant on the river bank "attacks" across it), as Fairy-Stockfish's does; protection
//! respects them.

use super::board::{
    file_of, in_palace, kind_of, on_board, own_half, rank_of, side_of, square, Square, ADVISOR,
    CANNON, ELEPHANT, EMPTY, HORSE, KING, OFF, PAWN, ROOK,
};
use super::{Move, Xiangqi};

/// A set of board points, bit `rank * 9 + file`.
type Set = u128;

/// The four orthogonal steps on the mailbox (up, down, right, left).
const ORTH: [i16; 4] = [16, -16, 1, -1];
/// The four diagonal steps.
const DIAG: [i16; 4] = [17, 15, -15, -17];
/// Horse jumps: the leg step, then the two destinations through that leg.
const HORSE_JUMPS: [(i16, i16, i16); 4] =
    [(16, 31, 33), (-16, -31, -33), (1, 18, -14), (-1, -18, 14)];

/// The mailbox board of one position.
type Board = [u8; 256];

#[inline]
fn bit(s: Square) -> Set {
    1u128 << (u32::from(rank_of(s)) * 9 + u32::from(file_of(s)))
}

/// The square of bit `i` of a [`Set`].
#[inline]
fn square_of(i: u32) -> Square {
    square((i % 9) as u8, (i / 9) as u8)
}

/// The squares of a set, lowest first.
fn squares(mut set: Set) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros();
        set &= set - 1;
        Some(square_of(i))
    })
}

/// `s` moved by `d` mailbox steps. Callers only step from on-board squares by at most two
/// ranks, which stays inside the padded array.
#[inline]
fn step(s: Square, d: i16) -> Square {
    (i16::from(s) + d) as u8
}

#[inline]
fn at(b: &Board, s: Square) -> u8 {
    b[usize::from(s)]
}

#[inline]
fn occupied(b: &Board, s: Square) -> bool {
    let p = at(b, s);
    p != EMPTY && p != OFF
}

/// Whether `s` holds a piece of `side` of `kind`.
#[inline]
fn is(b: &Board, s: Square, side: usize, kind: u8) -> bool {
    let p = at(b, s);
    p != EMPTY && p != OFF && side_of(p) == side && kind_of(p) == kind
}

/// The pieces of `side` (of `kind` only, if given).
fn pieces(b: &Board, side: usize, kind: Option<u8>) -> Set {
    let mut set = 0;
    for rank in 0..10 {
        for file in 0..9 {
            let s = square(file, rank);
            let p = at(b, s);
            if p != EMPTY && p != OFF && side_of(p) == side && kind.is_none_or(|k| kind_of(p) == k)
            {
                set |= bit(s);
            }
        }
    }
    set
}

/// The general of `side`, if on the board.
fn king(b: &Board, side: usize) -> Option<Square> {
    let ranks = if side == 0 { 0..3 } else { 7..10 };
    for rank in ranks {
        for file in 3..6 {
            let s = square(file, rank);
            if is(b, s, side, KING) {
                return Some(s);
            }
        }
    }
    None
}

/// The soldiers of `side` still on their own side of the river (not chaseable).
fn uncrossed_soldiers(b: &Board, side: usize) -> Set {
    squares(pieces(b, side, Some(PAWN)))
        .filter(|&s| own_half(side, s))
        .fold(0, |acc, s| acc | bit(s))
}

/// The points on the board one step from `s` in one of `dirs`.
fn neighbours(s: Square, dirs: &[i16]) -> Set {
    dirs.iter()
        .map(|&d| step(s, d))
        .filter(|&t| on_board(t))
        .fold(0, |acc, t| acc | bit(t))
}

/// The pieces of `kind` and `side` on `b` one step from `s` in one of `dirs`.
fn adjacent(b: &Board, s: Square, dirs: &[i16], side: usize, kind: u8) -> Set {
    dirs.iter()
        .map(|&d| step(s, d))
        .filter(|&t| is(b, t, side, kind))
        .fold(0, |acc, t| acc | bit(t))
}

/// The points a piece of `kind` and `side` on `s` attacks with the occupancy of `b` (the piece on
/// `s` itself is not looked at). Areas are ignored; a soldier attacks sideways only once across
/// the river, unless `raw_soldier` (then always, as Fairy-Stockfish's bare attack table does).
fn attacks(b: &Board, kind: u8, side: usize, s: Square, raw_soldier: bool) -> Set {
    let mut set = 0;
    match kind {
        KING => set |= neighbours(s, &ORTH),
        ADVISOR => set |= neighbours(s, &DIAG),
        ELEPHANT => {
            for d in DIAG {
                let eye = step(s, d);
                if on_board(eye) && !occupied(b, eye) {
                    let t = step(eye, d);
                    if on_board(t) {
                        set |= bit(t);
                    }
                }
            }
        }
        HORSE => {
            for (leg, a, c) in HORSE_JUMPS {
                let l = step(s, leg);
                if on_board(l) && !occupied(b, l) {
                    for t in [step(s, a), step(s, c)] {
                        if on_board(t) {
                            set |= bit(t);
                        }
                    }
                }
            }
        }
        ROOK | CANNON => {
            for d in ORTH {
                let mut t = step(s, d);
                let mut screened = kind == ROOK;
                while on_board(t) {
                    if occupied(b, t) {
                        if screened {
                            set |= bit(t);
                            break;
                        }
                        screened = true;
                    }
                    t = step(t, d);
                }
            }
        }
        PAWN => {
            let forward = step(s, if side == 0 { 16 } else { -16 });
            if on_board(forward) {
                set |= bit(forward);
            }
            if raw_soldier || !own_half(side, s) {
                set |= neighbours(s, &[1, -1]);
            }
        }
        _ => {}
    }
    set
}

/// The pieces of `side` attacking `s` with the occupancy of `b`; the general, advisors and
/// elephants only where they may stand (their area), soldiers as they move.
fn attackers_to(b: &Board, s: Square, side: usize) -> Set {
    let mut set = 0;
    if in_palace(side, s) {
        set |= adjacent(b, s, &ORTH, side, KING) | adjacent(b, s, &DIAG, side, ADVISOR);
    }
    if own_half(side, s) {
        for d in DIAG {
            let eye = step(s, d);
            if on_board(eye) && !occupied(b, eye) {
                let t = step(eye, d);
                if is(b, t, side, ELEPHANT) {
                    set |= bit(t);
                }
            }
        }
    }
    for (leg, a, c) in HORSE_JUMPS {
        for jump in [a, c] {
            let h = step(s, -jump);
            if is(b, h, side, HORSE) && !occupied(b, step(h, leg)) {
                set |= bit(h);
            }
        }
    }
    for d in ORTH {
        let mut t = step(s, d);
        let mut screened = false;
        while on_board(t) {
            if occupied(b, t) {
                if screened {
                    if is(b, t, side, CANNON) {
                        set |= bit(t);
                    }
                    break;
                }
                if is(b, t, side, ROOK) {
                    set |= bit(t);
                }
                screened = true;
            }
            t = step(t, d);
        }
    }
    let behind = step(s, if side == 0 { -16 } else { 16 });
    if is(b, behind, side, PAWN) {
        set |= bit(behind);
    }
    if !own_half(side, s) {
        set |= adjacent(b, s, &[1, -1], side, PAWN);
    }
    set
}

/// The pieces (of either side) that screen the general of `v` from the other side's chariots,
/// cannons and horses: removing one of them would give check.
fn blockers(b: &Board, v: usize) -> Set {
    let Some(k) = king(b, v) else {
        return 0;
    };
    let x = v ^ 1;
    let mut set = 0;
    for d in ORTH {
        // The pieces along the ray, nearest first.
        let mut line: [Square; 10] = [0; 10];
        let mut len = 0;
        let mut t = step(k, d);
        while on_board(t) && len < line.len() {
            if occupied(b, t) {
                line[len] = t;
                len += 1;
            }
            t = step(t, d);
        }
        for i in 1..len {
            let sniper = line[i];
            if is(b, sniper, x, ROOK) {
                // Other chariots that do not attack the general yet do not screen it.
                let mut between = line[..i]
                    .iter()
                    .enumerate()
                    .filter(|&(j, &q)| j == 0 || !is(b, q, x, ROOK))
                    .map(|(_, &q)| q);
                if let (Some(only), None) = (between.next(), between.next()) {
                    set |= bit(only);
                }
            } else if is(b, sniper, x, CANNON) && i == 2 {
                set |= bit(line[0]) | bit(line[1]);
            }
        }
    }
    for (leg, a, c) in HORSE_JUMPS {
        for jump in [a, c] {
            let h = step(k, -jump);
            let l = step(h, leg);
            if is(b, h, x, HORSE) && occupied(b, l) {
                set |= bit(l);
            }
        }
    }
    set
}

/// The points on the same line (rank or file, whole board) as both `a` and `b`.
fn line_through(a: Square, b: Square) -> Set {
    let mut set = 0;
    for rank in 0..10 {
        for file in 0..9 {
            let s = square(file, rank);
            let same_rank = rank_of(a) == rank_of(b) && rank == rank_of(a);
            let same_file = file_of(a) == file_of(b) && file == file_of(a);
            if same_rank || same_file {
                set |= bit(s);
            }
        }
    }
    set
}

/// `b` with the piece on each of `squares` removed.
fn without(b: &Board, removed: &[Square]) -> Board {
    let mut copy = *b;
    for &s in removed {
        copy[usize::from(s)] = EMPTY;
    }
    copy
}

/// The pieces of `v` (the side to move on `cur`) that the move `mv` into `cur` chased; `prev`
/// is the board before the move. See the module comment.
pub(super) fn chased(cur: &Board, prev: &Board, mv: Move, v: usize) -> Set {
    let x = v ^ 1;
    let from = mv.from();
    let to = mv.to();
    if !on_board(from) || !on_board(to) || !occupied(cur, to) {
        return 0;
    }
    let v_pieces = pieces(cur, v, None);
    let v_king = pieces(cur, v, Some(KING));
    let unchaseable = v_king | uncrossed_soldiers(cur, v);
    let v_blockers = blockers(cur, v);
    let mut pins = v_blockers;
    if let Some(xk) = king(cur, x) {
        let on_file = squares(v_pieces)
            .filter(|&s| file_of(s) == file_of(xk))
            .fold(0, |acc, s| acc | bit(s));
        if on_file & v_king != 0 && (on_file & !v_king).count_ones() <= 1 {
            pins |= on_file & !v_king;
        }
    }
    let mut chased: Set = 0;

    let add = |attacker: Square, kind: u8, mut targets: Set, chased: &mut Set| {
        if targets & !*chased == 0 {
            return;
        }
        targets &= !unchaseable;
        if kind == HORSE || kind == CANNON {
            *chased |= targets & pieces(cur, v, Some(ROOK));
        }
        if kind == ELEPHANT || kind == ADVISOR {
            *chased |= targets
                & (pieces(cur, v, Some(ROOK))
                    | pieces(cur, v, Some(CANNON))
                    | pieces(cur, v, Some(HORSE)));
        }
        let impaired = kind == HORSE && DIAG.iter().any(|&d| occupied(cur, step(attacker, d)));
        if impaired {
            // A horse with a blocked diagonal may attack a horse that cannot attack it back.
            for h in squares(targets & pieces(cur, v, Some(HORSE))) {
                if attacks(cur, HORSE, v, h, false) & bit(attacker) != 0 {
                    targets &= !bit(h);
                }
            }
        } else {
            targets &= !pieces(cur, v, Some(kind)) | pins;
        }
        if targets == 0 {
            return;
        }
        let lifted = without(cur, &[attacker]);
        let x_king = king(cur, x);
        for s in squares(targets) {
            let roots = attackers_to(&lifted, s, v) & !pins;
            let fake_king_root = roots != 0
                && roots == v_king
                && x_king.is_some_and(|xk| attacks(&lifted, ROOK, x, xk, false) & bit(s) != 0);
            if roots == 0 || fake_king_root {
                *chased |= bit(s);
            }
        }
    };

    // Direct attacks by the moved piece.
    let moved = kind_of(at(cur, to));
    if moved != KING && moved != PAWN {
        let mut direct = attacks(cur, moved, x, to, false) & v_pieces;
        if moved == ROOK || moved == CANNON {
            direct &= !line_through(from, to);
        }
        add(to, moved, direct, &mut chased);
    }

    // Discovered attacks.
    let mut candidates =
        adjacent(cur, from, &ORTH, x, HORSE) | adjacent(cur, from, &DIAG, x, ELEPHANT);
    let x_lines = pieces(cur, x, Some(ROOK)) | pieces(cur, x, Some(CANNON));
    for s in squares(x_lines) {
        let from_line = (file_of(s) == file_of(from) || rank_of(s) == rank_of(from)) && s != from;
        let to_line = (file_of(s) == file_of(to) || rank_of(s) == rank_of(to))
            && s != to
            && is(cur, s, x, CANNON);
        if from_line || to_line {
            candidates |= bit(s);
        }
    }
    for s in squares(candidates) {
        let kind = kind_of(at(cur, s));
        let found = v_pieces & attacks(cur, kind, x, s, false) & !attacks(prev, kind, x, s, false);
        add(s, kind, found, &mut chased);
    }

    // New pins (fake protection) and new discovered-check threats.
    let new_blockers = v_blockers & !blockers(prev, v);
    if new_blockers != 0 {
        let x_blockers = blockers(cur, x);
        for s in squares(new_blockers & v_pieces) {
            let kind = kind_of(at(cur, s));
            let protected = v_pieces & !unchaseable & attacks(cur, kind, v, s, true);
            for s2 in squares(protected) {
                if attackers_to(cur, s2, x) & !x_blockers != 0 {
                    chased |= bit(s2);
                }
            }
        }
        let v_king_sq = king(cur, v);
        let king_zone = v_king_sq.map_or(0, |k| attacks(cur, KING, v, k, false));
        for s in squares(new_blockers & pieces(cur, x, None)) {
            let kind = kind_of(at(cur, s));
            let threatened = attacks(cur, kind, x, s, false) & v_pieces;
            chased |= threatened & !king_zone;
            if let Some(k) = v_king_sq {
                let lifted = without(cur, &[s, k]);
                for s2 in squares(threatened & king_zone) {
                    if attackers_to(&lifted, s2, x) != 0 {
                        chased |= bit(s2);
                    }
                }
            }
        }
    }
    chased
}

/// `set` (points of pieces of the side that played `mv`) as it was before `mv`: the piece that
/// moved goes back to its origin.
#[inline]
fn before(set: Set, mv: Move) -> Set {
    let to = bit(mv.to());
    if set & to != 0 {
        (set ^ to) | bit(mv.from())
    } else {
        set
    }
}

/// Which sides chased perpetually (index = side) through the cycle that ends at the current
/// position and began `first_back` plies ago (a position with the same key). As in
/// Fairy-Stockfish, a side chases perpetually when one and the same enemy piece (followed as it
/// moves) was chased by every move of that side in the cycle; for the side that made the last
/// move, the move into the first occurrence counts too, when there was one (not the root of
/// the game or a null move).
pub(super) fn perpetual_chasers(pos: &Xiangqi, first_back: usize) -> [bool; 2] {
    let n = pos.history.len();
    let Some(first) = n.checked_sub(first_back) else {
        return [false; 2];
    };
    let last_mover = pos.side ^ 1;
    let mut sets: [Set; 2] = [Set::MAX; 2];
    let mut started = [false; 2];
    let mut cur: Board = *pos.board;
    let mut j = n;
    while j >= first {
        let state = if j == n {
            pos.st
        } else {
            match pos.history.get(j) {
                Some(s) => *s,
                None => break,
            }
        };
        let mv = state.last_move;
        if mv == Move::default() || !on_board(mv.from()) || !on_board(mv.to()) {
            break;
        }
        let mover = if (n - j) % 2 == 0 {
            last_mover
        } else {
            last_mover ^ 1
        };
        let mut prev = cur;
        prev[usize::from(mv.from())] = at(&cur, mv.to());
        prev[usize::from(mv.to())] = state.captured;
        let in_cycle = j > first || mover == last_mover;
        if in_cycle && sets[mover] != 0 {
            let c = chased(&cur, &prev, mv, mover ^ 1);
            sets[mover] = if started[mover] { sets[mover] & c } else { c };
            started[mover] = true;
        }
        // The chased pieces belong to the side that did not move: follow them back.
        sets[mover ^ 1] = before(sets[mover ^ 1], mv);
        if started == [true, true] && sets == [0, 0] {
            break;
        }
        if j == first {
            break;
        }
        cur = prev;
        j -= 1;
    }
    [started[0] && sets[0] != 0, started[1] && sets[1] != 0]
}
