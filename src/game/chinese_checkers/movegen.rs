//! Move generation: steps and jump chains as a flood fill over `u128` cell sets, and perft.

use arrayvec::ArrayVec;

use super::cells::{CellSet, ALL_CELLS, TABLES};
use super::{ChineseCheckers, Move, MAX_MOVES, NO_WINNER};
use crate::game::Rules as _;

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
    if lock == 0 {
        reach::<false>(start, occupied, landing, 0)
    } else {
        reach::<true>(start, occupied, landing, lock)
    }
}

/// [`jump_reach`], compiled once without the `goal-lock` test and once with it.
#[inline(always)]
fn reach<const LOCK: bool>(
    start: usize,
    occupied: CellSet,
    landing: CellSet,
    lock: CellSet,
) -> CellSet {
    let start_bit = TABLES.bit[start];
    let mut reached = start_bit;
    let mut frontier = start_bit;
    while frontier != 0 {
        let x = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        // Jump over each occupied neighbour (most cells of a chain have none or few).
        let mut over = TABLES.steps[x] & occupied;
        if over == 0 {
            continue;
        }
        let beyond = &TABLES.beyond[x];
        let mut new = 0u128;
        while over != 0 {
            let o = over.trailing_zeros() as usize;
            over &= over - 1;
            // `bit[PAD_BIT]` is empty: no landing beyond the edge.
            new |= TABLES.bit[beyond[o] as usize];
        }
        new &= landing & !reached;
        if LOCK && lock & TABLES.bit[x] != 0 {
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
    pub(crate) fn for_each_piece(&self, f: impl FnMut(usize, CellSet)) {
        if self.winner != NO_WINNER {
            return;
        }
        match (self.rules.goal_lock, self.rules.no_foreign_stop) {
            (false, false) => self.pieces_with::<false, false>(f),
            (true, false) => self.pieces_with::<true, false>(f),
            (false, true) => self.pieces_with::<false, true>(f),
            (true, true) => self.pieces_with::<true, true>(f),
        }
    }

    /// [`ChineseCheckers::for_each_piece`] compiled for one rule set.
    #[inline(always)]
    fn pieces_with<const GOAL_LOCK: bool, const NO_FOREIGN_STOP: bool>(
        &self,
        mut f: impl FnMut(usize, CellSet),
    ) {
        let s = self.side as usize;
        let occupied = self.occupied;
        let empty = !occupied & ALL_CELLS;
        let stop = if NO_FOREIGN_STOP {
            self.stop_cells(s)
        } else {
            ALL_CELLS
        };
        let lock = if GOAL_LOCK { self.target_cells(s) } else { 0 };
        let own = self.pieces[s];
        // Scan the two 64-bit halves separately (cheaper than 128-bit bit scans).
        for (mut half, base) in [(own as u64, 0), ((own >> 64) as u64, 64)] {
            while half != 0 {
                let c = half.trailing_zeros() as usize + base;
                half &= half - 1;
                let bit = TABLES.bit[c];
                let (allowed, jumps) = if GOAL_LOCK {
                    let allowed = if lock & bit != 0 { lock } else { ALL_CELLS };
                    (allowed, reach::<true>(c, occupied ^ bit, empty | bit, lock))
                } else {
                    (ALL_CELLS, reach::<false>(c, occupied ^ bit, empty | bit, 0))
                };
                let steps = TABLES.steps[c] & empty & allowed;
                let dests = steps | jumps;
                f(c, if NO_FOREIGN_STOP { dests & stop } else { dests });
            }
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
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: `count_moves_popcnt` only needs the `popcnt` instruction, which the
                // CPU has (checked just above).
                return unsafe { self.count_moves_popcnt() };
            }
        }
        self.count_moves_portable()
    }

    /// [`ChineseCheckers::count_moves`] compiled with the `popcnt` instruction. The default
    /// x86-64 target lacks it and counts bits in software; perft from the 2-player start
    /// goes from about 112 to 134 million leaves per CPU second with it
    /// (`tests/chinese_checkers_perft.rs`, `perft_speed`).
    ///
    /// # Safety
    /// The CPU must support `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn count_moves_popcnt(&self) -> u64 {
        self.count_moves_portable()
    }

    /// The move count, for any CPU.
    #[inline(always)]
    fn count_moves_portable(&self) -> u64 {
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
