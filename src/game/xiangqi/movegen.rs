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
    attacked, color_flag, Square, Steps, ADVISOR_STEPS, ELEPHANT_STEPS, EMPTY, HORSE_STEPS,
    KING_STEPS, OFF, ORTHOGONAL, PAWN_STEPS, SLOTS, SLOT_ADVISOR, SLOT_CANNON, SLOT_ELEPHANT,
    SLOT_HORSE, SLOT_KING, SLOT_PAWN, SLOT_ROOK,
};
use super::{Move, Xiangqi, XiangqiMoveList};

/// Whether a move needs the full legality test (see the module comment).
#[inline(always)]
fn needs_test(from: Square, to: Square, king: Square) -> bool {
    let a = from ^ king;
    let c = to ^ king;
    (a & 0x0F) == 0
        || (a & 0xF0) == 0
        || (c & 0x0F) == 0
        || (c & 0xF0) == 0
        || matches!(from.wrapping_sub(king), 15 | 17 | 239 | 241)
}

struct Generator<'a> {
    /// Scratch copy of the board for legality tests (restored after each test).
    scratch: [u8; 256],
    king: Square,
    side: usize,
    in_check: bool,
    list: &'a mut XiangqiMoveList,
}

impl Generator<'_> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Square) {
        if self.in_check || needs_test(from, to, self.king) {
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
    let mut g = Generator {
        scratch: pos.board,
        king: pieces[SLOT_KING],
        side: us,
        in_check: pos.st.in_check,
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

    let king = pieces[SLOT_KING];
    g.steps::<ALL, false>(board, king, &KING_STEPS[us][king as usize], block);
}
