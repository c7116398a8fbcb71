//! Squares, pieces, the padded mailbox and the step tables of xiangqi.
//!
//! The board is a 16 x 16 mailbox (`[u8; 256]`): file `f` (0..9, `a`..`i`) and rank `r`
//! (0..10, Red's back rank is 0) live at index `(r + 3) * 16 + f + 3`. Every square that is
//! not on the 9 x 10 board holds [`OFF`], so sliding stops by itself and a horse jump (at most
//! two files or ranks away) never leaves the array. Indexing a `[u8; 256]` with a `u8` needs no
//! bounds check, which is why squares are `u8`.
//!
//! Why not `u128` bitboards: chariot and cannon attacks over 90 bits need large tables or
//! slow scans, while the mailbox with fixed piece-list slots walks rays with one byte load per
//! square. Bitboards were not measured; the mailbox reaches about 200 million perft nodes per
//! CPU-second (perft 5 from the start in ~0.6 s, Fairy-Stockfish takes ~9.3 s).

/// A mailbox square index (see the module comment).
pub type Square = u8;

/// An empty square.
pub const EMPTY: u8 = 0;
/// A square outside the board (padding).
pub const OFF: u8 = 0x40;
/// Colour flag of Red (side 0) pieces.
pub const RED: u8 = 0x10;
/// Colour flag of Black (side 1) pieces.
pub const BLACK: u8 = 0x20;

/// Piece kinds (the low three bits of a piece code).
pub const KING: u8 = 1;
/// Advisor (guard).
pub const ADVISOR: u8 = 2;
/// Elephant (minister).
pub const ELEPHANT: u8 = 3;
/// Horse.
pub const HORSE: u8 = 4;
/// Chariot (rook).
pub const ROOK: u8 = 5;
/// Cannon.
pub const CANNON: u8 = 6;
/// Soldier (pawn).
pub const PAWN: u8 = 7;

/// The colour flag of side `s` (0 = Red, 1 = Black).
#[inline(always)]
pub const fn color_flag(side: usize) -> u8 {
    RED << side
}

/// The side (0 or 1) of a piece code (which must be a piece, not empty or off-board).
#[inline(always)]
pub const fn side_of(piece: u8) -> usize {
    (piece >> 5) as usize
}

/// The kind of a piece code.
#[inline(always)]
pub const fn kind_of(piece: u8) -> u8 {
    piece & 7
}

/// The square of file `f` (0..9) and rank `r` (0..10).
#[inline(always)]
pub const fn square(file: u8, rank: u8) -> Square {
    (rank + 3) * 16 + file + 3
}

/// File (0..9) of an on-board square.
#[inline(always)]
pub const fn file_of(s: Square) -> u8 {
    (s & 15) - 3
}

/// Rank (0..10) of an on-board square.
#[inline(always)]
pub const fn rank_of(s: Square) -> u8 {
    (s >> 4) - 3
}

/// Whether a mailbox index is on the 9 x 10 board.
pub const fn on_board(s: Square) -> bool {
    let f = s & 15;
    let r = s >> 4;
    f >= 3 && f <= 11 && r >= 3 && r <= 12
}

/// Whether `s` is in the palace of `side`.
pub const fn in_palace(side: usize, s: Square) -> bool {
    if !on_board(s) {
        return false;
    }
    let f = file_of(s);
    let r = rank_of(s);
    f >= 3 && f <= 5 && if side == 0 { r <= 2 } else { r >= 7 }
}

/// Whether `s` is on `side`'s own half (before the river).
pub const fn own_half(side: usize, s: Square) -> bool {
    on_board(s)
        && if side == 0 {
            rank_of(s) <= 4
        } else {
            rank_of(s) >= 5
        }
}

/// Whether an advisor of `side` can ever stand on `s` (the five palace diagonal points).
pub const fn advisor_square(side: usize, s: Square) -> bool {
    in_palace(side, s) && (file_of(s) + rank_of(s)) % 2 == if side == 0 { 1 } else { 0 }
}

/// Whether an elephant of `side` can ever stand on `s` (the seven points it can reach).
pub const fn elephant_square(side: usize, s: Square) -> bool {
    if !own_half(side, s) {
        return false;
    }
    let f = file_of(s);
    let r = if side == 0 {
        rank_of(s)
    } else {
        9 - rank_of(s)
    };
    (r == 0 || r == 4) && (f == 2 || f == 6) || r == 2 && (f == 0 || f == 4 || f == 8)
}

/// Whether a soldier of `side` can ever stand on `s`: on its start points or the point ahead of
/// them before the river, anywhere across it.
pub const fn pawn_square(side: usize, s: Square) -> bool {
    if !on_board(s) {
        return false;
    }
    let r = if side == 0 {
        rank_of(s)
    } else {
        9 - rank_of(s)
    };
    r >= 5 || (r == 3 || r == 4) && file_of(s) % 2 == 0
}

/// Up to eight destinations from one square, each with the square that must be empty on the
/// way (the horse's leg, the elephant's eye; unused for other pieces).
#[derive(Clone, Copy)]
pub struct Steps {
    /// Number of entries used.
    pub len: u8,
    /// Destinations.
    pub to: [u8; 8],
    /// The blocking square of each destination.
    pub via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn with(mut self, to: u8, via: u8) -> Steps {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

const fn add(s: Square, d: i32) -> u8 {
    (s as i32 + d) as u8
}

/// Whether a general, advisor or elephant (`kind`) of `side` may stand on `sq` as its step
/// tables see it: the palace, the palace diagonals, its own half.
const fn may_stand(kind: u8, side: usize, sq: Square) -> bool {
    match kind {
        KING => in_palace(side, sq),
        ADVISOR => advisor_square(side, sq),
        _ => own_half(side, sq),
    }
}

/// The steps of a general, advisor or elephant (`kind`) of `side` from `sq`: `reach` times one
/// of `dirs` (the eye is one step on), staying where [`may_stand`] allows.
const fn confined_steps(kind: u8, side: usize, sq: Square, dirs: [i32; 4], reach: i32) -> Steps {
    let mut st = Steps::EMPTY;
    if !may_stand(kind, side, sq) {
        return st;
    }
    let mut i = 0;
    while i < 4 {
        let target = sq as i32 + reach * dirs[i];
        if target >= 0 && target < 256 && may_stand(kind, side, target as u8) {
            st = st.with(target as u8, add(sq, dirs[i]));
        }
        i += 1;
    }
    st
}

/// The horse's jumps from `sq`, each with its leg.
const fn horse_steps(sq: Square) -> Steps {
    let mut st = Steps::EMPTY;
    if !on_board(sq) {
        return st;
    }
    // (leg direction, two destinations through that leg)
    let legs = [
        (16i32, 31i32, 33i32),
        (-16, -31, -33),
        (1, 18, -14),
        (-1, -18, 14),
    ];
    let mut i = 0;
    while i < 4 {
        let (leg, a, b) = legs[i];
        let ta = add(sq, a);
        if on_board(ta) {
            st = st.with(ta, add(sq, leg));
        }
        let tb = add(sq, b);
        if on_board(tb) {
            st = st.with(tb, add(sq, leg));
        }
        i += 1;
    }
    st
}

/// The steps of a soldier of `side` from `sq`: forward, and sideways after the river.
const fn pawn_steps(side: usize, sq: Square) -> Steps {
    let mut st = Steps::EMPTY;
    if !pawn_square(side, sq) {
        return st;
    }
    let fwd = if side == 0 { 16 } else { -16 };
    let to = add(sq, fwd);
    if on_board(to) {
        st = st.with(to, to);
    }
    if !own_half(side, sq) {
        let mut i = 0;
        let sides = [1i32, -1];
        while i < 2 {
            let to = add(sq, sides[i]);
            if on_board(to) {
                st = st.with(to, to);
            }
            i += 1;
        }
    }
    st
}

/// The step table of a `kind` piece (not chariot or cannon) of `side`, by square.
const fn step_table(kind: u8, side: usize) -> [Steps; 256] {
    let mut t = [Steps::EMPTY; 256];
    let mut s = 0usize;
    while s < 256 {
        let sq = s as u8;
        t[s] = match kind {
            KING => confined_steps(kind, side, sq, [1, -1, 16, -16], 1),
            ADVISOR | ELEPHANT => confined_steps(
                kind,
                side,
                sq,
                [15, 17, -15, -17],
                1 + (kind == ELEPHANT) as i32,
            ),
            HORSE => horse_steps(sq),
            _ => pawn_steps(side, sq),
        };
        s += 1;
    }
    t
}

/// King steps inside the palace, per side.
pub static KING_STEPS: [[Steps; 256]; 2] = [step_table(KING, 0), step_table(KING, 1)];
/// Advisor steps on the palace diagonals, per side.
pub static ADVISOR_STEPS: [[Steps; 256]; 2] = [step_table(ADVISOR, 0), step_table(ADVISOR, 1)];
/// Elephant steps (with the eye) on its own half, per side.
pub static ELEPHANT_STEPS: [[Steps; 256]; 2] = [step_table(ELEPHANT, 0), step_table(ELEPHANT, 1)];
/// Horse jumps (with the leg).
pub static HORSE_STEPS: [Steps; 256] = step_table(HORSE, 0);
/// Soldier steps (forward; sideways after the river), per side.
pub static PAWN_STEPS: [[Steps; 256]; 2] = [step_table(PAWN, 0), step_table(PAWN, 1)];

/// Piece-list slots: a fixed range per kind, so move generation needs no kind dispatch.
/// A FEN is rejected if a side has more pieces of a kind than its range holds
/// (1 general, 2 advisors, 2 elephants, 2 horses, 2 chariots, 2 cannons, 5 soldiers).
pub const SLOT_KING: usize = 0;
/// First advisor slot.
pub const SLOT_ADVISOR: usize = 1;
/// First elephant slot.
pub const SLOT_ELEPHANT: usize = 3;
/// First horse slot.
pub const SLOT_HORSE: usize = 5;
/// First chariot slot.
pub const SLOT_ROOK: usize = 7;
/// First cannon slot.
pub const SLOT_CANNON: usize = 9;
/// First soldier slot.
pub const SLOT_PAWN: usize = 11;
/// Number of slots per side.
pub const SLOTS: usize = 16;

/// The slot range of a kind.
pub const fn slot_range(kind: u8) -> (usize, usize) {
    match kind {
        KING => (SLOT_KING, SLOT_ADVISOR),
        ADVISOR => (SLOT_ADVISOR, SLOT_ELEPHANT),
        ELEPHANT => (SLOT_ELEPHANT, SLOT_HORSE),
        HORSE => (SLOT_HORSE, SLOT_ROOK),
        ROOK => (SLOT_ROOK, SLOT_CANNON),
        CANNON => (SLOT_CANNON, SLOT_PAWN),
        _ => (SLOT_PAWN, SLOTS),
    }
}

/// The four orthogonal directions.
pub const ORTHOGONAL: [u8; 4] = [1, 255, 16, 240];

/// Whether the king of `side` on `k` is attacked on board `b` (by a chariot, cannon, horse,
/// soldier, or the other general on an open file: the flying-general rule).
#[inline(always)]
pub fn attacked(b: &[u8; 256], k: Square, side: usize) -> bool {
    attacked_on(|s| b[s as usize], k, side)
}

/// [`attacked`] on board `b` after the piece on `from` has moved to `to` (capturing what stood
/// there), read through the move without copying the board: whether a move of the other side
/// gives check to the king of `side` on `k`.
#[inline(always)]
pub fn attacked_after(b: &[u8; 256], from: Square, to: Square, k: Square, side: usize) -> bool {
    let moved = b[from as usize];
    attacked_on(
        |s| {
            if s == to {
                moved
            } else if s == from {
                EMPTY
            } else {
                b[s as usize]
            }
        },
        k,
        side,
    )
}

/// [`attacked`] over a board read square by square through `at`.
#[inline(always)]
fn attacked_on(at: impl Fn(Square) -> u8, k: Square, side: usize) -> bool {
    let them = color_flag(side ^ 1);
    let rook = them | ROOK;
    let cannon = them | CANNON;
    let king = them | KING;
    for d in ORTHOGONAL {
        let mut t = k.wrapping_add(d);
        while at(t) == EMPTY {
            t = t.wrapping_add(d);
        }
        let p = at(t);
        if p == rook || p == king {
            return true;
        }
        if p == OFF {
            continue;
        }
        t = t.wrapping_add(d);
        while at(t) == EMPTY {
            t = t.wrapping_add(d);
        }
        if at(t) == cannon {
            return true;
        }
    }
    horse_or_pawn_attacks_on(at, k, side)
}

/// The horse and soldier part of [`attacked`].
#[inline(always)]
pub fn horse_or_pawn_attacks(b: &[u8; 256], k: Square, side: usize) -> bool {
    horse_or_pawn_attacks_on(|s| b[s as usize], k, side)
}

/// The squares from which a horse reaches a square: (the leg square, next to the target square
/// diagonally, and the two horse squares behind it), as offsets from the target square.
const HORSE_PATHS: [(u8, u8, u8); 4] =
    [(17, 33, 18), (15, 31, 14), (241, 225, 242), (239, 223, 238)];

/// Whether a horse (`horse`: the piece with its colour) attacks `k` on a board read through
/// `at`: from two ranks and one file away (or one rank and two files), through the leg square
/// diagonally next to `k`.
#[inline(always)]
fn horse_attacks_on(at: &impl Fn(Square) -> u8, k: Square, horse: u8) -> bool {
    for (leg, a, c) in HORSE_PATHS {
        if at(k.wrapping_add(leg)) == EMPTY
            && (at(k.wrapping_add(a)) == horse || at(k.wrapping_add(c)) == horse)
        {
            return true;
        }
    }
    false
}

/// [`horse_or_pawn_attacks`] over a board read through `at`.
#[inline(always)]
fn horse_or_pawn_attacks_on(at: impl Fn(Square) -> u8, k: Square, side: usize) -> bool {
    let them = color_flag(side ^ 1);
    if horse_attacks_on(&at, k, them | HORSE) {
        return true;
    }
    let pawn = them | PAWN;
    let ahead = if side == 0 {
        k.wrapping_add(16)
    } else {
        k.wrapping_sub(16)
    };
    at(ahead) == pawn || at(k.wrapping_add(1)) == pawn || at(k.wrapping_sub(1)) == pawn
}

/// Whether a piece of `by` attacks the on-board square `s` of board `b`: could capture on `s`
/// by its own move, pins and the flying-general rule aside. Unlike [`attacked`], which asks
/// about a general's square, this holds on any square: a general or an advisor attacks only
/// inside its palace (a general one step away), an elephant only on its own half and over an
/// empty eye, a soldier sideways only once across the river. For exchange tests.
#[inline]
pub fn attacked_by(b: &[u8; 256], s: Square, by: usize) -> bool {
    least_attacker(b, s, by).is_some()
}

/// The square of the least valuable piece of `by` that attacks the on-board square `s` of board
/// `b` (by the rules of [`attacked_by`]), for the exchange test's swap list: a soldier, an
/// advisor, an elephant, a horse, a cannon, a chariot, then the general; `None` when nothing
/// attacks. A cannon is found through whatever screen the board holds now, so a capture that
/// makes or removes a screen changes the next answer.
pub fn least_attacker(b: &[u8; 256], s: Square, by: usize) -> Option<Square> {
    let at = |t: Square| b[t as usize];
    let us = color_flag(by);
    let pawn = us | PAWN;
    let behind = if by == 0 {
        s.wrapping_sub(16)
    } else {
        s.wrapping_add(16)
    };
    if at(behind) == pawn {
        return Some(behind);
    }
    if !own_half(by, s) {
        for t in [s.wrapping_add(1), s.wrapping_sub(1)] {
            if at(t) == pawn {
                return Some(t);
            }
        }
    }
    if in_palace(by, s) {
        for d in [15u8, 17, 239, 241] {
            if at(s.wrapping_add(d)) == (us | ADVISOR) {
                return Some(s.wrapping_add(d));
            }
        }
    }
    if own_half(by, s) {
        for eye in [15u8, 17, 239, 241] {
            let e = s.wrapping_add(eye);
            if at(e) == EMPTY && at(e.wrapping_add(eye)) == (us | ELEPHANT) {
                return Some(e.wrapping_add(eye));
            }
        }
    }
    for (leg, a, c) in HORSE_PATHS {
        if at(s.wrapping_add(leg)) == EMPTY {
            for t in [s.wrapping_add(a), s.wrapping_add(c)] {
                if at(t) == (us | HORSE) {
                    return Some(t);
                }
            }
        }
    }
    let mut rook = None;
    let mut king = None;
    for d in ORTHOGONAL {
        let next = s.wrapping_add(d);
        if at(next) == (us | KING) && in_palace(by, s) {
            king = Some(next);
        }
        let mut t = next;
        while at(t) == EMPTY {
            t = t.wrapping_add(d);
        }
        if at(t) == (us | ROOK) {
            rook = rook.or(Some(t));
        }
        if at(t) == OFF {
            continue;
        }
        t = t.wrapping_add(d);
        while at(t) == EMPTY {
            t = t.wrapping_add(d);
        }
        if at(t) == (us | CANNON) {
            return Some(t);
        }
    }
    rook.or(king)
}

/// The squares of the pieces giving check to the king of `side` on `k` (slow; for display).
pub fn checkers(b: &[u8; 256], k: Square, side: usize) -> Vec<Square> {
    (0..=255u8)
        .filter(|&s| {
            let p = b[s as usize];
            p != EMPTY && p != OFF && side_of(p) != side && direct_attacker(b, s, k, side)
        })
        .collect()
}

/// How many pieces stand strictly between `s` and `k` on board `b`; `None` when the two squares
/// share neither a file nor a rank.
fn pieces_between(b: &[u8; 256], s: Square, k: Square) -> Option<i32> {
    if file_of(s) != file_of(k) && rank_of(s) != rank_of(k) {
        return None;
    }
    let d: u8 = if file_of(s) == file_of(k) {
        if s > k {
            240
        } else {
            16
        }
    } else if s > k {
        255
    } else {
        1
    };
    let mut t = s.wrapping_add(d);
    let mut count = 0;
    while t != k {
        count += i32::from(b[t as usize] != EMPTY);
        t = t.wrapping_add(d);
    }
    Some(count)
}

/// Whether the piece on `s` attacks the king on `k` (a cannon over exactly one screen).
fn direct_attacker(b: &[u8; 256], s: Square, k: Square, side: usize) -> bool {
    let mut only = [OFF; 256];
    for (i, v) in only.iter_mut().enumerate() {
        if on_board(i as u8) {
            *v = EMPTY;
        }
    }
    only[s as usize] = b[s as usize];
    only[k as usize] = b[k as usize];
    let kind = kind_of(b[s as usize]);
    if kind == CANNON {
        // A cannon needs its screen: exactly one piece between on the line.
        return pieces_between(b, s, k) == Some(1);
    }
    if kind == HORSE {
        // keep the real leg square
        for i in 0..HORSE_STEPS[s as usize].len as usize {
            if HORSE_STEPS[s as usize].to[i] == k {
                let leg = HORSE_STEPS[s as usize].via[i];
                return b[leg as usize] == EMPTY;
            }
        }
        return false;
    }
    if kind == ROOK || kind == KING {
        // everything between must be empty in the real board
        return pieces_between(b, s, k) == Some(0) && (kind == ROOK || file_of(s) == file_of(k));
    }
    attacked(&only, k, side)
}
