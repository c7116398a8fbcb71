//! Xiangqi's network inputs: 1260 piece-square features per perspective (own or their piece x
//! 7 kinds x 90 points, the board flipped top to bottom for Black's perspective), the embedded
//! network `xiangqi.nnue`, and the accumulator updates of make/undo.
//!
//! Feature index from perspective `p` (Red 0, Black 1) of a piece of side `s` and kind `k`
//! (king 0, advisor 1, elephant 2, horse 3, chariot 4, cannon 5, soldier 6) on file `f` (0..9)
//! and rank `r` (0..10, Red's back rank 0): `630 * (s != p) + 90 * k + 9 * r' + f` with `r' = r`
//! for Red and `9 - r` for Black.

use std::sync::Arc;

use super::board::{file_of, kind_of, rank_of, side_of, Square, EMPTY, OFF};
use super::{Move, Xiangqi};
use crate::nnue::{AccumulatorStack, Feature, NetSlot};

/// Input features per perspective.
pub const INPUTS: usize = 1260;

/// The network xiangqi evaluates with (`EvalFile` replaces it).
pub static NET: NetSlot = NetSlot::new("xiangqi", INPUTS, include_bytes!("xiangqi.nnue"));

/// The feature of piece code `p` on square `s`, from both perspectives.
#[inline(always)]
pub fn feature(p: u8, s: Square) -> Feature {
    let side = side_of(p);
    let kind = (kind_of(p) - 1) as usize;
    let file = file_of(s) as usize;
    let rank = rank_of(s) as usize;
    let red = 630 * side + 90 * kind + 9 * rank + file;
    let black = 630 * (side ^ 1) + 90 * kind + 9 * (9 - rank) + file;
    [red, black]
}

impl Xiangqi {
    /// Every piece's feature.
    pub(crate) fn features(&self) -> impl Iterator<Item = Feature> + '_ {
        (0..=255u8).filter_map(|s| {
            let p = self.board[s as usize];
            (p != EMPTY && p != OFF).then(|| feature(p, s))
        })
    }

    /// Builds the accumulator stack for `net` (or drops it for `None`).
    pub(crate) fn set_network(&mut self, net: Option<Arc<crate::nnue::Network>>) {
        self.nnue = net.map(|n| Box::new(AccumulatorStack::new(n, self.features())));
    }

    /// Pushes the accumulator of the position after `m` (called before the board changes).
    #[inline(always)]
    pub(crate) fn nnue_push(&mut self, m: Move, piece: u8, captured: u8) {
        let Some(stack) = self.nnue.as_mut() else {
            return;
        };
        let (from, to) = (m.from(), m.to());
        if captured == EMPTY {
            stack.push(&[feature(piece, to)], &[feature(piece, from)]);
        } else {
            stack.push(
                &[feature(piece, to)],
                &[feature(piece, from), feature(captured, to)],
            );
        }
    }

    /// The network's evaluation for the side to move, when a network is active: from the
    /// stack if the position has one, else computed from scratch.
    pub(crate) fn nnue_evaluate(&self) -> Option<i32> {
        NET.evaluate(self.nnue.as_deref(), || self.features(), self.side)
    }
}

/// The feature of the same piece on the point mirrored across the middle file (files a and i
/// swapped), from the same perspective: xiangqi is symmetric that way, so a mirrored position is
/// equivalent (for training).
pub fn mirror_feature(f: usize) -> usize {
    let file = f % 9;
    f - file + (8 - file)
}
