//! Legal move generation.
//!
//! Moves are generated pseudo-legally from the piece lists and each one is tested for legality
//! only when it can matter. When the side to move is not in check, a move by a piece other than
//! the general can expose the general only if
//! - it leaves the general's file or rank (it unblocks a chariot, the other general or a
//!   cannon, or removes one of a cannon's two screens), or
//! - it lands on the general's file or rank (it becomes a cannon's screen), or
//! - it leaves a square diagonally next to the general (a horse's leg).
//!
//! Soldiers' attacks cannot be opened by another move. Every other move is legal as generated.
//! General moves and all moves while in check are always tested, by playing the move on a
//! scratch copy of the board and asking [`attacked`].

use super::board::{
    attacked, color_flag, Square, Steps, ADVISOR_STEPS, CANNON, ELEPHANT_STEPS, EMPTY, HORSE,
    HORSE_STEPS, KING, KING_STEPS, OFF, ORTHOGONAL, PAWN_STEPS, ROOK, SLOTS, SLOT_ADVISOR,
    SLOT_CANNON, SLOT_ELEPHANT, SLOT_HORSE, SLOT_KING, SLOT_PAWN, SLOT_ROOK,
};
use super::{Move, Xiangqi, XiangqiMoveList};

/// The ray (0 up, 1 down, 2 right, 3 left) from `king` through `s`, or 4 if `s` is on neither
/// the general's file nor its rank. (`s == king` gives 1: only used for other squares.)
#[inline(always)]
fn ray_of(s: Square, king: Square) -> u32 {
    let x = s ^ king;
    if x & 0x0F == 0 {
        u32::from(s <= king)
    } else if x & 0xF0 == 0 {
        2 + u32::from(s < king)
    } else {
        4
    }
}

/// The leg (0..4) of the diagonal neighbour `s` of `king`, or 4.
#[inline(always)]
fn leg_of(s: Square, king: Square) -> u32 {
    match s.wrapping_sub(king) {
        17 => 0,
        15 => 1,
        241 => 2,
        239 => 3,
        _ => 4,
    }
}

/// Per-node danger flags for the side to move's general (not in check): bit `r` of `rays` is
/// set when ray `r` holds an enemy chariot, cannon or general somewhere (only then can a move
/// on that ray expose the general); bit `l` of `legs` when an enemy horse stands behind the
/// diagonal neighbour `l` (only then can moving the piece on that leg square expose it).
fn danger(board: &[u8; 256], king: Square, side: usize) -> (u32, u32) {
    let them = color_flag(side ^ 1);
    let mut rays = 0;
    for (r, d) in [16u8, 240, 1, 255].into_iter().enumerate() {
        let mut t = king.wrapping_add(d);
        loop {
            let p = board[t as usize];
            if p == OFF {
                break;
            }
            if p == them | ROOK || p == them | CANNON || p == them | KING {
                rays |= 1 << r;
                break;
            }
            t = t.wrapping_add(d);
        }
    }
    let mut legs = 0;
    let horse = them | HORSE;
    for (l, (leg, a, c)) in [
        (17u8, 33u8, 18u8),
        (15, 31, 14),
        (241, 225, 242),
        (239, 223, 238),
    ]
    .into_iter()
    .enumerate()
    {
        let _ = leg;
        if board[king.wrapping_add(a) as usize] == horse
            || board[king.wrapping_add(c) as usize] == horse
        {
            legs |= 1 << l;
        }
    }
    (rays, legs)
}

struct Generator<'a> {
    /// Scratch copy of the board for legality tests (restored after each test).
    scratch: [u8; 256],
    king: Square,
    side: usize,
    in_check: bool,
    /// Danger bits of the rays (bit 4 never set), see [`danger`].
    rays: u32,
    /// Danger bits of the legs (bit 4 never set).
    legs: u32,
    list: &'a mut XiangqiMoveList,
}

impl Generator<'_> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Square) {
        let test = self.in_check
            || from == self.king
            || (self.rays >> ray_of(from, self.king)) & 1 != 0
            || (self.rays >> ray_of(to, self.king)) & 1 != 0
            || (self.legs >> leg_of(from, self.king)) & 1 != 0;
        if test {
            let piece = self.scratch[from as usize];
            let captured = self.scratch[to as usize];
            self.scratch[to as usize] = piece;
            self.scratch[from as usize] = EMPTY;
            let king = if from == self.king { to } else { self.king };
            let bad = attacked(&self.scratch, king, self.side);
            self.scratch[from as usize] = piece;
            self.scratch[to as usize] = captured;
            if bad {
                return;
            }
        }
        self.list.push(Move::new(from, to));
    }

    /// Moves along a step table; `CHECK_VIA` tests the leg/eye square.
    #[inline(always)]
    fn steps<const ALL: bool, const CHECK_VIA: bool>(
        &mut self,
        board: &[u8; 256],
        from: Square,
        steps: &Steps,
        block: u8,
    ) {
        for i in 0..(steps.len as usize).min(8) {
            if CHECK_VIA && board[steps.via[i] as usize] != EMPTY {
                continue;
            }
            let to = steps.to[i];
            let p = board[to as usize];
            if p == EMPTY {
                if ALL {
                    self.add(from, to);
                }
            } else if p & block == 0 {
                self.add(from, to);
            }
        }
    }
}

/// Generates the legal moves (`ALL`) or the legal captures (`!ALL`) into `list`.
pub(super) fn generate<const ALL: bool>(pos: &Xiangqi, list: &mut XiangqiMoveList) {
    list.clear();
    let us = pos.side;
    let block = color_flag(us) | OFF;
    let board = &pos.board;
    let pieces: &[u8; SLOTS] = &pos.pieces[us];
    let king = pieces[SLOT_KING];
    let (rays, legs) = if pos.st.in_check {
        (0, 0)
    } else {
        danger(board, king, us)
    };
    let mut g = Generator {
        scratch: *pos.board,
        king,
        side: us,
        in_check: pos.st.in_check,
        rays,
        legs,
        list,
    };

    for &from in &pieces[SLOT_ROOK..SLOT_CANNON] {
        if from == 0 {
            continue;
        }
        for d in ORTHOGONAL {
            let mut to = from.wrapping_add(d);
            loop {
                let p = board[to as usize];
                if p == EMPTY {
                    if ALL {
                        g.add(from, to);
                    }
                    to = to.wrapping_add(d);
                    continue;
                }
                if p & block == 0 {
                    g.add(from, to);
                }
                break;
            }
        }
    }

    for &from in &pieces[SLOT_CANNON..SLOT_PAWN] {
        if from == 0 {
            continue;
        }
        for d in ORTHOGONAL {
            let mut to = from.wrapping_add(d);
            while board[to as usize] == EMPTY {
                if ALL {
                    g.add(from, to);
                }
                to = to.wrapping_add(d);
            }
            if board[to as usize] == OFF {
                continue;
            }
            // `to` is the screen; the first piece beyond it may be captured.
            to = to.wrapping_add(d);
            while board[to as usize] == EMPTY {
                to = to.wrapping_add(d);
            }
            if board[to as usize] & block == 0 {
                g.add(from, to);
            }
        }
    }

    for &from in &pieces[SLOT_HORSE..SLOT_ROOK] {
        if from != 0 {
            g.steps::<ALL, true>(board, from, &HORSE_STEPS[from as usize], block);
        }
    }

    for &from in &pieces[SLOT_PAWN..SLOTS] {
        if from != 0 {
            g.steps::<ALL, false>(board, from, &PAWN_STEPS[us][from as usize], block);
        }
    }

    for &from in &pieces[SLOT_ELEPHANT..SLOT_HORSE] {
        if from != 0 {
            g.steps::<ALL, true>(board, from, &ELEPHANT_STEPS[us][from as usize], block);
        }
    }

    for &from in &pieces[SLOT_ADVISOR..SLOT_ELEPHANT] {
        if from != 0 {
            g.steps::<ALL, false>(board, from, &ADVISOR_STEPS[us][from as usize], block);
        }
    }

    g.steps::<ALL, false>(board, king, &KING_STEPS[us][king as usize], block);
}
