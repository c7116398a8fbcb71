//! Witness paths: for each legal move, the cells a piece passes through (`g5 i5 k5`), for
//! GUIs that do not know the rules.

use super::cells::{Cell, ALL_CELLS, NUM_CELLS, TABLES};
use super::{ChineseCheckers, Move};
use crate::game::Rules as _;

/// A legal move with a witness path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveWithPath {
    /// The move.
    pub mv: Move,
    /// The cells from the start to the destination (empty for the pass). A step has two
    /// cells; a jump chain one cell per landing, with the fewest jumps possible.
    pub path: Vec<Cell>,
}

/// Writes a path as cell names separated by spaces (`g5 i5 k5`).
pub fn path_to_string(path: &[Cell]) -> String {
    path.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl ChineseCheckers {
    /// A witness path for `m` if it is legal here: `[from, to]` for a step, the landings of a
    /// shortest jump chain otherwise, `[]` for the pass. `None` if `m` is not legal.
    pub fn move_path(&self, m: Move) -> Option<Vec<Cell>> {
        let mut list = <Self as crate::game::Rules>::MoveList::default();
        self.generate_moves(&mut list);
        if !list.contains(&m) {
            return None;
        }
        if m.is_pass() {
            return Some(Vec::new());
        }
        let (from, to) = (m.from_cell()?, m.to_cell()?);
        if TABLES.steps[from.index()] & to.bit() != 0 {
            // A legal move to an adjacent cell is always available as a step.
            return Some(vec![from, to]);
        }
        self.jump_path(from, to)
    }

    /// [`ChineseCheckers::move_path`] written as cell names (`g5 i5 k5`), for
    /// `info string path ...`; `None` if `m` is not legal, `""` for the pass.
    pub fn path_string(&self, m: Move) -> Option<String> {
        self.move_path(m).map(|p| path_to_string(&p))
    }

    /// The legal moves with a witness path each; with `piece`, only the moves of the piece on
    /// that cell (none if it is not a piece of the side to move). The pass, when it is the only
    /// move, is listed (path empty) only when `piece` is `None`.
    pub fn moves_with_paths(&self, piece: Option<Cell>) -> Vec<MoveWithPath> {
        let mut list = <Self as crate::game::Rules>::MoveList::default();
        self.generate_moves(&mut list);
        list.iter()
            .filter(|m| match piece {
                None => true,
                Some(p) => m.from_cell() == Some(p) && !m.is_pass(),
            })
            .filter_map(|&m| self.move_path(m).map(|path| MoveWithPath { mv: m, path }))
            .collect()
    }

    /// Breadth-first search over single jumps from `from` to `to`, with the rules of this
    /// position (start cell empty during the chain; `goal-lock` landings).
    fn jump_path(&self, from: Cell, to: Cell) -> Option<Vec<Cell>> {
        let s = self.side as usize;
        let bit = from.bit();
        let occupied = self.occupied ^ bit;
        let lock = if self.rules.goal_lock {
            self.target_cells(s)
        } else {
            0
        };
        let landing = !occupied & ALL_CELLS;
        let mut parent = [u8::MAX; NUM_CELLS];
        let mut seen = bit;
        let mut queue = std::collections::VecDeque::from([from.index()]);
        while let Some(x) = queue.pop_front() {
            let n = TABLES.jump_count[x] as usize;
            let allowed = if lock & (1u128 << x) != 0 {
                landing & lock
            } else {
                landing
            };
            for &(over, land) in &TABLES.jumps[x][..n] {
                let lb = 1u128 << land;
                if occupied & (1u128 << over) != 0 && allowed & lb != 0 && seen & lb == 0 {
                    seen |= lb;
                    parent[land as usize] = x as u8;
                    if land as usize == to.index() {
                        let mut path = vec![to];
                        let mut at = to.index();
                        while at != from.index() {
                            at = parent[at] as usize;
                            path.push(Cell::from_index(at)?);
                        }
                        path.reverse();
                        return Some(path);
                    }
                    queue.push_back(land as usize);
                }
            }
        }
        None
    }
}
