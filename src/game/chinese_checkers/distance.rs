//! Distances for evaluation: the plain distance of a lone piece (steps only), and the
//! "pieces distance" that also uses jump chains over the pieces already on the board.

use super::cells::{Cell, CellSet, ALL_CELLS, NUM_CELLS, TABLES};
use super::movegen::jump_reach;
use super::ChineseCheckers;

/// The fewest moves a lone piece needs from `a` to `b`: with nothing to jump over it can only
/// step, so this is the hex distance (the star contains a shortest hex path between any two of
/// its cells; `tests/chinese_checkers_rules.rs` checks this against a breadth-first search).
#[inline]
pub fn plain_distance(a: Cell, b: Cell) -> u32 {
    let (ax, ay, az) = a.cube();
    let (bx, by, bz) = b.cube();
    let d = (ax - bx).abs().max((ay - by).abs()).max((az - bz).abs());
    d as u32
}

/// Marks an unreachable cell in [`ChineseCheckers::pieces_distances`] (never happens: steps
/// reach every cell).
pub const UNREACHABLE: u8 = u8::MAX;

impl ChineseCheckers {
    /// For every cell, the fewest moves the piece on `from` needs to reach it when the other
    /// pieces stay where they are, counting a chain of jumps over existing pieces as one move.
    ///
    /// Like [`plain_distance`], a step may go to any adjacent cell (other pieces are not treated
    /// as obstacles: they move on later), so the result is never more than the plain distance;
    /// a jump needs a piece to jump over and an empty landing, the piece's own start cell
    /// counting as empty. Indexed by [`Cell::index`]; works for an empty `from` too (a piece
    /// placed there).
    pub fn pieces_distances(&self, from: Cell) -> [u8; NUM_CELLS] {
        let occupied = self.occupied & !from.bit();
        let landing = !occupied & ALL_CELLS;
        let mut dist = [UNREACHABLE; NUM_CELLS];
        let mut reached: CellSet = from.bit();
        let mut frontier: CellSet = from.bit();
        let mut d = 0u8;
        while frontier != 0 {
            let mut next: CellSet = 0;
            let mut f = frontier;
            while f != 0 {
                let x = f.trailing_zeros() as usize;
                f &= f - 1;
                dist[x] = d;
                next |= TABLES.steps[x] | jump_reach(x, occupied, landing, 0);
            }
            next &= !reached;
            reached |= next;
            frontier = next;
            d += 1;
        }
        dist
    }

    /// The fewest moves from `from` to `to` as in [`ChineseCheckers::pieces_distances`]
    /// (at most [`plain_distance`]).
    pub fn pieces_distance(&self, from: Cell, to: Cell) -> u32 {
        u32::from(self.pieces_distances(from)[to.index()])
    }
}
