//! Chess's network inputs: 768 piece-square features per perspective (own or their piece x 6
//! kinds x 64 squares, the board flipped top to bottom for Black's perspective), the embedded
//! network `chess.nnue`, and the accumulator updates of make/undo.
//!
//! Feature index from perspective `p` (White 0, Black 1) of a piece of side `s` and kind `k`
//! (pawn 0 .. king 5) on square `sq` (a1 = 0, h8 = 63): `384 * (s != p) + 64 * k + sq'` with
//! `sq' = sq` for White and `sq ^ 56` for Black.

use std::sync::Arc;

use super::board::Chess;
use super::types::*;
use crate::nnue::{AccumulatorStack, Feature, NetSlot};

/// Input features per perspective.
pub const INPUTS: usize = 768;

/// The network chess evaluates with (`EvalFile` replaces it).
pub static NET: NetSlot = NetSlot::new("chess", INPUTS, include_bytes!("chess.nnue"));

/// The feature of piece code `p` on `sq`, from both perspectives.
#[inline(always)]
pub fn feature(p: u8, sq: usize) -> Feature {
    let side = side_of(p);
    let kind = kind_of(p);
    let white = 384 * side + 64 * kind + sq;
    let black = 384 * (side ^ 1) + 64 * kind + (sq ^ 56);
    [white, black]
}

impl Chess {
    /// Every piece's feature.
    pub(crate) fn features(&self) -> impl Iterator<Item = Feature> + '_ {
        (0..64).filter_map(|sq| {
            let p = self.board[sq];
            (p != NO_PIECE).then(|| feature(p, sq))
        })
    }

    /// Builds the accumulator stack for `net` (or drops it for `None`).
    pub(crate) fn set_network(&mut self, net: Option<Arc<crate::nnue::Network>>) {
        self.nnue = net.map(|n| Box::new(AccumulatorStack::new(n, self.features())));
    }

    /// Pushes the accumulator of the position after `m` (called before the board changes;
    /// `captured` is the captured piece code or `NO_PIECE`).
    #[inline(always)]
    pub(crate) fn nnue_push(&mut self, m: Move, captured: u8) {
        let Some(stack) = self.nnue.as_mut() else {
            return;
        };
        let us = self.stm as usize;
        let from = m.from();
        let to = m.to();
        match m.kind() {
            CASTLING => {
                let (kto, rto) = super::board::castle_targets(from, to);
                let king = piece(us, KING);
                let rook = piece(us, ROOK);
                stack.push(
                    &[feature(king, kto), feature(rook, rto)],
                    &[feature(king, from), feature(rook, to)],
                );
            }
            kind => {
                let p = self.board[from];
                let placed = if kind == PROMOTION {
                    piece(us, m.promo())
                } else {
                    p
                };
                if captured == NO_PIECE {
                    stack.push(&[feature(placed, to)], &[feature(p, from)]);
                } else {
                    let capsq = if kind == EN_PASSANT { to ^ 8 } else { to };
                    stack.push(
                        &[feature(placed, to)],
                        &[feature(p, from), feature(captured, capsq)],
                    );
                }
            }
        }
    }

    /// The network's evaluation for the side to move, when a network is active: from the
    /// stack if the position has one, else computed from scratch.
    pub(crate) fn nnue_evaluate(&self) -> Option<i32> {
        NET.evaluate(self.nnue.as_deref(), || self.features(), self.side())
    }
}

/// The feature of the same piece on the square mirrored across the d/e line (files a and h
/// swapped), from the same perspective: for training on mirrored positions, which without
/// castling rights are equivalent.
pub fn mirror_feature(f: usize) -> usize {
    f ^ 7
}
