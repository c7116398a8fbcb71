//! Static exchange evaluation: whether a capture wins at least a given amount once every piece
//! that attacks the target square has joined in, cheapest first (pins are not considered).

use super::attacks::sliders;
use super::bitboard::{bit, lsb};
use super::board::Chess;
use super::types::*;

/// Piece values for exchanges (the king is worth more than anything it could win).
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 30_000];

impl Chess {
    /// Whether the exchange on the target square started by `m` gains at least `threshold`
    /// for the side making it, when each side may stop capturing whenever it likes.
    /// Promotions, en passant and castling count as an even exchange (`threshold <= 0`).
    pub fn static_exchange_ge(&self, m: Move, threshold: i32) -> bool {
        if m.kind() != NORMAL {
            return threshold <= 0;
        }
        let (from, to) = (m.from(), m.to());
        let victim = self.piece_on(to);
        let mover = self.piece_on(from);
        if mover == NO_PIECE {
            return threshold <= 0;
        }
        let captured = if victim == NO_PIECE {
            0
        } else {
            SEE_VALUE[kind_of(victim)]
        };
        // `margin`: how far the side that just captured is above the threshold if the
        // exchange stops here, seen alternately from each side.
        let mut margin = captured - threshold;
        if margin < 0 {
            return false;
        }
        margin = SEE_VALUE[kind_of(mover)] - margin;
        if margin <= 0 {
            return true;
        }
        let s = sliders();
        let diagonal = self.by_kind[BISHOP] | self.by_kind[QUEEN];
        let straight = self.by_kind[ROOK] | self.by_kind[QUEEN];
        let mut occupied = self.occupied() ^ bit(from) ^ bit(to);
        let mut attackers = self.attackers_to(to, occupied);
        let mut side = side_of(mover);
        // Whether the side that made the first capture comes out at or above the threshold.
        let mut first_wins = true;
        loop {
            side ^= 1;
            attackers &= occupied;
            let ours = attackers & self.by_side[side];
            if ours == 0 {
                break;
            }
            first_wins = !first_wins;
            let Some(kind) = (PAWN..=KING).find(|&k| ours & self.by_kind[k] != 0) else {
                break;
            };
            if kind == KING {
                // The king may take only when nothing defends the square any more.
                return if attackers & self.by_side[side ^ 1] != 0 {
                    !first_wins
                } else {
                    first_wins
                };
            }
            margin = SEE_VALUE[kind] - margin;
            if margin < i32::from(first_wins) {
                break;
            }
            occupied ^= bit(lsb(ours & self.by_kind[kind]));
            if kind == PAWN || kind == BISHOP || kind == QUEEN {
                attackers |= s.bishop(to, occupied) & diagonal;
            }
            if kind == ROOK || kind == QUEEN {
                attackers |= s.rook(to, occupied) & straight;
            }
        }
        first_wins
    }
}
