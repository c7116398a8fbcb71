//! A simple progress evaluation and the quiet horizon for quiescence search.

use arrayvec::ArrayVec;

use super::cells::{Cell, TABLES};
use super::distance::plain_distance;
use super::{ChineseCheckers, Move, MAX_MOVES};
use crate::game::Score;

/// Score units per cell of distance.
pub const DISTANCE_WEIGHT: Score = 10;

/// A move is noisy when it advances its piece by at least this many rows (only a jump can).
pub const NOISY_ADVANCE: i32 = 2;

impl ChineseCheckers {
    /// Sum over the pieces of side `i` of the plain distance to the tip of its target triangle
    /// (lower is better; 20 when the target is filled: 0 + 1 + 1 + 2 + 2 + 2 + 3 + 3 + 3 + 3).
    pub fn distance_to_target(&self, i: usize) -> u32 {
        if i >= self.num_players as usize {
            return 0;
        }
        let tip = self.homes[i].opposite().tip();
        super::cells::cells_of(self.pieces[i])
            .map(|c| plain_distance(c, tip))
            .sum()
    }

    /// The progress score from the side to move's view: the smallest distance total of the
    /// opponents minus its own, times [`DISTANCE_WEIGHT`] (a later issue brings a real eval).
    pub fn progress_score(&self) -> Score {
        let s = self.side as usize;
        let own = self.distance_to_target(s) as Score;
        let best_opponent = (0..self.num_players as usize)
            .filter(|&i| i != s)
            .map(|i| self.distance_to_target(i) as Score)
            .min()
            .unwrap_or(own);
        (best_opponent - own) * DISTANCE_WEIGHT
    }

    /// Rows a move advances its piece towards the mover's target (negative when it retreats;
    /// 0 for the pass).
    pub fn advance(&self, m: Move) -> i32 {
        match (m.from_cell(), m.to_cell()) {
            (Some(from), Some(to)) if !m.is_pass() => {
                let home = self.homes[self.side as usize];
                home.progress(to) - home.progress(from)
            }
            _ => 0,
        }
    }

    /// The legal moves that advance at least [`NOISY_ADVANCE`] rows (long forward jumps).
    pub(crate) fn generate_noisy_into(&self, list: &mut ArrayVec<Move, MAX_MOVES>) {
        let home = self.homes[self.side as usize].index();
        let progress = &TABLES.progress[home];
        self.for_each_piece(|from, mut dests| {
            let p0 = i32::from(progress[from]);
            while dests != 0 {
                let to = dests.trailing_zeros() as usize;
                dests &= dests - 1;
                if i32::from(progress[to]) - p0 >= NOISY_ADVANCE {
                    list.push(Move {
                        from: from as u8,
                        to: to as u8,
                    });
                }
            }
        });
    }
}

/// The plain distance from `cell` to the nearest cell of `triangle`'s cells (0 inside).
pub fn distance_to_triangle(cell: Cell, triangle: super::Triangle) -> u32 {
    super::cells::cells_of(triangle.cells())
        .map(|c| plain_distance(cell, c))
        .min()
        .unwrap_or(0)
}

/// Tunable weights of this evaluation (UCI spin options; see `crate::params`).
pub static PARAMS: &[&crate::params::Param] = &[];
