//! Standard algebraic notation (SAN) of a legal move, as game records write it: `Nbd7`, `exd5`,
//! `O-O`, `e8=Q+`, `Qh7#`. Castling is `O-O`/`O-O-O` in standard chess and Chess960 alike.

use super::bitboard::{file_of, rank_of, square_name};
use super::types::*;
use super::Chess;
use crate::game::{MoveBuffer, Notation, Rules};

impl Chess {
    /// The SAN text of `m`, which must be legal here (an illegal move is written in UCI form).
    pub fn san(&self, m: Move) -> String {
        let mut list = <Chess as Rules>::MoveList::default();
        self.generate_moves(&mut list);
        if m.is_null() || !list.moves().contains(&m) {
            return self.format_move(m, &super::ChessConfig::default());
        }
        let (from, to) = (m.from(), m.to());
        let moving = self.piece_on(from);
        let kind = kind_of(moving);
        let mut san = String::new();
        if m.kind() == CASTLING {
            // Castling is stored as king takes own rook.
            san.push_str(if to > from { "O-O" } else { "O-O-O" });
        } else if kind == PAWN {
            if file_of(from) != file_of(to) {
                san.push((b'a' + file_of(from) as u8) as char);
                san.push('x');
            }
            san.push_str(&square_name(to));
            if m.kind() == PROMOTION {
                san.push('=');
                san.push(piece_char(piece(WHITE, m.promo())));
            }
        } else {
            san.push(piece_char(piece(WHITE, kind)));
            let rivals: Vec<usize> = list
                .moves()
                .iter()
                .filter(|o| {
                    o.to() == to
                        && o.from() != from
                        && o.kind() != CASTLING
                        && self.piece_on(o.from()) == moving
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&f| file_of(f) == file_of(from));
                let same_rank = rivals.iter().any(|&f| rank_of(f) == rank_of(from));
                let name = square_name(from);
                if !same_file {
                    san.push_str(&name[..1]);
                } else if !same_rank {
                    san.push_str(&name[1..]);
                } else {
                    san.push_str(&name);
                }
            }
            if self.piece_on(to) != NO_PIECE {
                san.push('x');
            }
            san.push_str(&square_name(to));
        }
        let mut after = self.clone();
        after.make_move(m);
        if after.in_check() {
            let mut replies = <Chess as Rules>::MoveList::default();
            after.generate_moves(&mut replies);
            san.push(if replies.moves().is_empty() { '#' } else { '+' });
        }
        san
    }
}
