//! Move generation: steps and jump chains as a flood fill over `u128` cell sets, and perft.

use arrayvec::ArrayVec;

use super::cells::{CellSet, ALL_CELLS, TABLES};
use super::{ChineseCheckers, Move, MAX_MOVES, NO_WINNER};
use crate::game::Game;

/// Every cell a piece on `start` reaches by a chain of one or more jumps, the start cell
/// excluded.
///
/// `occupied` holds the pieces jumped over (the moving piece removed: its start cell counts
/// as empty); `landing` the cells a jump may land on (the empty cells). `lock` is the mover's
/// target under `goal-lock` (else 0): a jump from a cell of `lock` must land in `lock` (a piece
/// standing in its target, at the start or at any landing of the chain, stays there).
/// Each cell is expanded once, so chains that loop back end.
#[inline]
pub fn jump_reach(start: usize, occupied: CellSet, landing: CellSet, lock: CellSet) -> CellSet {
    let start_bit = 1u128 << start;
    let mut reached = start_bit;
    let mut frontier = start_bit;
    while frontier != 0 {
        let x = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let mut new = 0u128;
        for &(over, land) in &TABLES.jumps[x] {
            // Padding entries name bit 127, never set in `occupied`.
            new |= ((occupied >> over) & 1) << land;
        }
        new &= landing & !reached;
        if (lock >> x) & 1 != 0 {
            new &= lock;
        }
        reached |= new;
        frontier |= new;
    }
    reached & !start_bit
}

impl ChineseCheckers {
    /// Calls `f(from, destinations)` for each piece of the side to move, with the set of cells
    /// it may move to under the rules of this position (possibly empty). Nothing is called in
    /// a won position.
    #[inline(always)]
    pub(crate) fn for_each_piece(&self, mut f: impl FnMut(usize, CellSet)) {
        if self.winner != NO_WINNER {
            return;
        }
        let s = self.side as usize;
        let occupied = self.occupied;
        let empty = !occupied & ALL_CELLS;
        let stop = self.stop_cells(s);
        let lock = if self.rules.goal_lock {
            self.target_cells(s)
        } else {
            0
        };
        let mut own = self.pieces[s];
        while own != 0 {
            let c = own.trailing_zeros() as usize;
            own &= own - 1;
            let bit = 1u128 << c;
            let allowed = if lock & bit != 0 { lock } else { ALL_CELLS };
            let steps = TABLES.steps[c] & empty & allowed;
            let jumps = jump_reach(c, occupied ^ bit, empty | bit, lock);
            f(c, (steps | jumps) & stop);
        }
    }

    /// The cells the piece on `from` may move to (empty if it is not a piece of the side to
    /// move or the position is won).
    pub fn destinations(&self, from: super::Cell) -> CellSet {
        let mut result = 0;
        self.for_each_piece(|c, d| {
            if c == from.index() {
                result = d;
            }
        });
        result
    }

    /// Pushes every legal move (the pass if there is none and nobody has won).
    pub(crate) fn generate_into(&self, list: &mut ArrayVec<Move, MAX_MOVES>) {
        self.for_each_piece(|from, mut dests| {
            while dests != 0 {
                let to = dests.trailing_zeros();
                dests &= dests - 1;
                list.push(Move {
                    from: from as u8,
                    to: to as u8,
                });
            }
        });
        if list.is_empty() && self.winner == NO_WINNER {
            list.push(Move::PASS);
        }
    }

    /// The number of legal moves (the pass counts as one; a won position has none).
    pub fn count_moves(&self) -> u64 {
        if self.winner != NO_WINNER {
            return 0;
        }
        let mut n = 0u64;
        self.for_each_piece(|_, dests| n += u64::from(dests.count_ones()));
        n.max(1)
    }

    /// Perft with bulk counting at depth 1, through the same make/undo as search.
    pub fn perft_fast(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let mut list = ArrayVec::<Move, MAX_MOVES>::new();
                self.generate_into(&mut list);
                let mut nodes = 0;
                for &m in &list {
                    self.make_move(m);
                    nodes += self.perft_fast(depth - 1);
                    self.undo_move(m);
                }
                nodes
            }
        }
    }
}
