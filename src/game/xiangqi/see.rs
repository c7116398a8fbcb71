//! Static exchange evaluation for xiangqi: the captures on one square, each side taking with its
//! least valuable attacker and free to stop, as chess's swap list does. The board itself is
//! played through the exchange (each capturer moves onto the square and leaves its own), and the
//! next attacker is looked up on that board, so the screens a cannon needs appear and vanish as
//! they do in the game: a piece leaving a line can open one cannon's screen or close another's.
//! Pins are not looked at; a general takes only when the square is then safe for it (the
//! flying-general rule included).

use super::board::{attacked, kind_of, least_attacker, EMPTY, KING, OFF};
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

/// Whether the move `m` (a capture or a quiet move) gains at least `threshold` once the
/// exchange on its target square is played out.
pub(super) fn see_ge(pos: &Xiangqi, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    // `swap` is what the side to move in the exchange must win back for the mover to fall
    // below the threshold (negative: the mover is already below).
    let mut swap = value(pos.board[to as usize]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(pos.board[from as usize]) - swap;
    if swap <= 0 {
        return true;
    }
    let mut board: [u8; 256] = *pos.board;
    board[to as usize] = board[from as usize];
    board[from as usize] = EMPTY;
    let mut side = pos.side;
    // Whether the mover reaches the threshold if the exchange stops here.
    let mut good = true;
    loop {
        side ^= 1;
        let Some(sq) = least_attacker(&board, to, side) else {
            break;
        };
        good = !good;
        let piece = board[sq as usize];
        board[to as usize] = piece;
        board[sq as usize] = EMPTY;
        if kind_of(piece) == KING {
            // A general takes only when the square is then safe for it: no guard left, and the
            // other general not facing it along an open file.
            return if attacked(&board, to, side) {
                !good
            } else {
                good
            };
        }
        swap = value(piece) - swap;
        if swap < i32::from(good) {
            break;
        }
    }
    good
}
