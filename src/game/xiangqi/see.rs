//! A one-recapture exchange test for quiescence search. Full static exchange evaluation is
//! awkward in xiangqi (a cannon's attacks appear and vanish as screens come and go), so the test
//! looks one capture deep: a capture is good when the victim is worth at least the capturer, or
//! when nothing of the opponent's attacks the target square once the capture is made.

use super::board::{attacked_by, kind_of, EMPTY, KING, OFF};
use super::eval::VALUE;
use super::{Move, Xiangqi};

/// What a general is worth in an exchange (it may never be given up).
const KING_VALUE: i32 = 10_000;

fn value(piece: u8) -> i32 {
    if piece == EMPTY || piece == OFF {
        0
    } else if kind_of(piece) == KING {
        KING_VALUE
    } else {
        VALUE[kind_of(piece) as usize]
    }
}

/// Whether the capture `m` gains at least `threshold`: the victim's value if the target square
/// is not attacked after the capture, else the victim minus the capturer.
pub(super) fn see_ge(pos: &Xiangqi, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let victim = value(pos.board[to as usize]);
    let capturer = value(pos.board[from as usize]);
    if victim < threshold {
        return false;
    }
    if victim - capturer >= threshold {
        return true;
    }
    let mut board: [u8; 256] = *pos.board;
    board[to as usize] = pos.board[from as usize];
    board[from as usize] = EMPTY;
    !attacked_by(&board, to, pos.side ^ 1)
}
