//! Polyglot opening books for chess: the format's position key and its move encoding (the book
//! file itself is [`crate::game::book`]).

use super::bitboard::Squares;
use super::types::*;
use super::{Chess, ChessMoveList};
use crate::game::{MoveBuffer, Rules};

use super::polyglot_keys::RANDOM;

/// The Polyglot key of a position: pieces, castling rights, the en-passant file when a pawn of
/// the side to move stands beside the double-stepped pawn (sanqi keeps the en-passant square
/// exactly then), and White to move.
pub fn key(pos: &Chess) -> u64 {
    let mut key = 0;
    for side in [WHITE, BLACK] {
        for kind in PAWN..=KING {
            let piece = 2 * kind + usize::from(side == WHITE);
            for sq in Squares(pos.pieces(side, kind)) {
                key ^= RANDOM[64 * piece + sq];
            }
        }
    }
    for right in 0..4 {
        if pos.castling & (1 << right) != 0 {
            key ^= RANDOM[768 + right];
        }
    }
    if pos.ep != NO_SQUARE {
        key ^= RANDOM[772 + (pos.ep as usize & 7)];
    }
    if pos.side() == WHITE {
        key ^= RANDOM[780];
    }
    key
}

/// The move of a Polyglot entry in `pos`, if it is legal there: `to` in bits 0-5, `from` in
/// bits 6-11, the promotion (1 knight ... 4 queen) in bits 12-14. Castling is written as the
/// king taking its own rook (`e1h1`), as sanqi stores it; the king's two-square step (`e1g1`),
/// which some books write, is read too.
pub fn decode_move(pos: &Chess, raw: u16) -> Option<Move> {
    let to = usize::from(raw & 63);
    let from = usize::from((raw >> 6) & 63);
    let promo = usize::from((raw >> 12) & 7);
    let mut list = ChessMoveList::default();
    pos.generate_moves(&mut list);
    list.moves().iter().copied().find(|m| {
        m.from() == from
            && m.to() == to
            && match m.kind() {
                PROMOTION => promo == m.promo(),
                _ => promo == 0,
            }
            || m.kind() == CASTLING
                && promo == 0
                && m.from() == from
                && super::board::castle_targets(m.from(), m.to()).0 == to
    })
}
