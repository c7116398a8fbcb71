//! The evaluation and the quiet horizon for quiescence search.
//!
//! Every side `i` gets a score `g(i)` (higher is better) made of weighted terms:
//! - *distance*: minus the sum of the plain distances of its pieces to the tip of its target
//!   ([`DISTANCE`]);
//! - *pieces distance*: minus the sum of the jump-aware distances of its pieces to the tip
//!   ([`PIECES_DISTANCE`]; one breadth-first search from the tip, see [`ChineseCheckers::pieces_distances`]:
//!   jumps are reversible, so distances from the tip are distances to it, up to the moving piece
//!   itself counting as a piece to jump over);
//! - *stragglers*: minus the gap between the rearmost piece and the mean of its pieces
//!   ([`STRAGGLER`]), and minus the pieces still at home after [`HOME_LATE_MOVES`] own moves
//!   ([`HOME_LATE`]);
//! - *target*: pieces standing in its target ([`TARGET`]);
//! - *jumps*: single forward jumps its pieces could make now ([`JUMP`]).
//!
//! Every term but *pieces distance* and *target* is on by default; each was measured in games
//! (docs/chinese-checkers.md).
//!
//! The evaluation for side `p` is `g(p) - max over the other sides q of g(q)` (each term as the
//! difference to that best opponent), so with two players it is zero-sum and
//! [`Evaluation::evaluate`](crate::game::Evaluation::evaluate) is the evaluation for the side to move.

use arrayvec::ArrayVec;

use super::cells::{Cell, TABLES};
use super::distance::{plain_distance, UNREACHABLE};
use super::{ChineseCheckers, Move, MAX_MOVES};
use crate::game::Value;

crate::declare_params! {
    /// Tunable weights of this evaluation (UCI spin options; see `crate::tune`).
    pub static PARAMS;
    /// Score per cell of plain distance to the target tip.
    pub DISTANCE = "CC Distance Weight", 10, 0, 100, 1;
    /// Score per move of jump-aware distance to the target tip. Off by default: a breadth-first
    /// search per side and node cuts the speed about five times, and at equal nodes weight 5 lost
    /// 6-54 in 60 games (docs/chinese-checkers.md).
    pub PIECES_DISTANCE = "CC Pieces Distance Weight", 0, 0, 100, 1;
    /// Score per cell between the rearmost piece and the mean distance of the pieces.
    pub STRAGGLER = "CC Straggler Weight", 4, 0, 100, 1;
    /// Score per piece still in its home triangle late in the game.
    pub HOME_LATE = "CC Home Late Weight", 10, 0, 200, 2;
    /// From this many own moves on, pieces at home count as late.
    pub HOME_LATE_MOVES = "CC Home Late Moves", 25, 0, 200, 2;
    /// Score per piece in the target triangle. Off by default: weight 5 lost 23-37 in 60 games
    /// against weight 0 (the distance term already rewards entering the target).
    pub TARGET = "CC Target Weight", 0, 0, 100, 1;
    /// Score per single forward jump available.
    pub JUMP = "CC Jump Weight", 2, 0, 50, 1;
}

/// Number of evaluation terms.
pub const NUM_TERMS: usize = 6;

/// Names of the terms, in the order of [`ChineseCheckers::side_terms`].
pub const TERM_NAMES: [&str; NUM_TERMS] = [
    "distance",
    "pieces distance",
    "stragglers",
    "home late",
    "target",
    "jumps",
];

/// Score units per cell of distance.
pub const DISTANCE_WEIGHT: Value = 10;

/// A move is noisy when it advances its piece by at least this many rows (only a jump can).
pub const NOISY_ADVANCE: i32 = 2;

impl ChineseCheckers {
    /// Sum over the pieces of side `i` of the plain distance to the tip of its target triangle
    /// (lower is better; 20 when the target is filled: 0 + 1 + 1 + 2 + 2 + 2 + 3 + 3 + 3 + 3).
    pub fn distance_to_target(&self, i: usize) -> u32 {
        if i >= self.num_players as usize {
            return 0;
        }
        let dist = &TABLES.tip_distance[self.homes[i].opposite().index()];
        super::cells::cells_of(self.pieces[i])
            .map(|c| u32::from(dist[c.index()]))
            .sum()
    }

    /// The old distance-only score from the side to move's view: the smallest distance total of
    /// the opponents minus its own, times [`DISTANCE_WEIGHT`] (what [`ChineseCheckers::evaluation_for`]
    /// gives with every weight but [`DISTANCE`] at 0 and [`DISTANCE`] at its default).
    pub fn progress_score(&self) -> Value {
        let s = self.side as usize;
        let own = self.distance_to_target(s) as Value;
        let best_opponent = (0..self.num_players as usize)
            .filter(|&i| i != s)
            .map(|i| self.distance_to_target(i) as Value)
            .min()
            .unwrap_or(own);
        (best_opponent - own) * DISTANCE_WEIGHT
    }

    /// The weighted terms `g(i)` of side `i` (higher is better), in [`TERM_NAMES`] order.
    pub fn side_terms(&self, i: usize) -> [Value; NUM_TERMS] {
        let mut t = [0; NUM_TERMS];
        if i >= self.num_players as usize {
            return t;
        }
        let pieces = self.pieces[i];
        let home = self.homes[i];
        let target = home.opposite();
        let tip = target.tip();
        let dist = &TABLES.tip_distance[target.index()];
        let (mut sum, mut max, mut n) = (0i32, 0i32, 0i32);
        for c in super::cells::cells_of(pieces) {
            let d = i32::from(dist[c.index()]);
            sum += d;
            max = max.max(d);
            n += 1;
        }
        t[0] = -DISTANCE.get() * sum;
        let w = PIECES_DISTANCE.get();
        if w != 0 {
            let dist = self.pieces_distances(tip);
            let total: i32 = super::cells::cells_of(pieces)
                .map(|c| match dist[c.index()] {
                    UNREACHABLE => plain_distance(c, tip) as i32,
                    d => i32::from(d),
                })
                .sum();
            t[1] = -w * total;
        }
        if n > 0 {
            t[2] = -STRAGGLER.get() * (max * n - sum) / n;
        }
        let own_moves = self.ply / u32::from(self.num_players);
        if own_moves >= HOME_LATE_MOVES.get().max(0) as u32 {
            t[3] = -HOME_LATE.get() * (pieces & home.cells()).count_ones() as i32;
        }
        t[4] = TARGET.get() * (pieces & target.cells()).count_ones() as i32;
        let w = JUMP.get();
        if w != 0 {
            // A jump over a neighbour of more progress lands farther forward still (progress
            // is linear along each direction of the star).
            let forward = &TABLES.forward_steps[home.index()];
            let empty = !self.occupied;
            let mut jumps = 0;
            for c in super::cells::cells_of(pieces) {
                let x = c.index();
                let mut over = forward[x] & self.occupied;
                while over != 0 {
                    let o = over.trailing_zeros() as usize;
                    over &= over - 1;
                    if TABLES.bit[TABLES.beyond[x][o] as usize] & empty != 0 {
                        jumps += 1;
                    }
                }
            }
            t[5] = w * jumps;
        }
        t
    }

    /// The terms from side `p`'s view: each term of `p` minus the same term of the opponent
    /// with the highest total (all zero with one player).
    pub fn terms_for(&self, p: usize) -> [Value; NUM_TERMS] {
        let own = self.side_terms(p);
        let mut best: Option<[Value; NUM_TERMS]> = None;
        for q in (0..self.num_players as usize).filter(|&q| q != p) {
            let t = self.side_terms(q);
            if best.is_none_or(|b| t.iter().sum::<Value>() > b.iter().sum::<Value>()) {
                best = Some(t);
            }
        }
        let best = best.unwrap_or(own);
        std::array::from_fn(|k| own[k] - best[k])
    }

    /// The evaluation from side `p`'s view (see the module documentation).
    pub fn evaluation_for(&self, p: usize) -> Value {
        self.terms_for(p).iter().sum()
    }

    /// The terms for the `eval` command, from the side to move's view, then the total.
    pub fn evaluation_terms(&self) -> Vec<(String, Value)> {
        let t = self.terms_for(self.side as usize);
        let mut v: Vec<(String, Value)> = TERM_NAMES
            .iter()
            .zip(t)
            .map(|(n, x)| (n.to_string(), x))
            .collect();
        v.push(("total (side to move)".to_string(), t.iter().sum()));
        v
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

    /// The last empty cell of the side to move's target when only one is left (a piece that
    /// comes from outside the target and lands there wins), else the empty set.
    #[inline]
    fn winning_hole(&self) -> super::CellSet {
        let target = self.target_cells(self.side as usize);
        let hole = target & !self.occupied;
        if hole.count_ones() == 1 {
            hole
        } else {
            0
        }
    }

    /// Whether `m` fills the mover's target (wins at once).
    pub fn is_winning_move(&self, m: Move) -> bool {
        !m.is_pass()
            && TABLES.bit[m.to as usize] & self.winning_hole() != 0
            && TABLES.bit[m.from as usize] & self.target_cells(self.side as usize) == 0
    }

    /// The legal moves that advance at least [`NOISY_ADVANCE`] rows (long forward jumps), and
    /// the moves that win at once (fill the target: search must never prune them).
    pub(crate) fn generate_noisy_into(&self, list: &mut ArrayVec<Move, MAX_MOVES>) {
        let home = self.homes[self.side as usize].index();
        let progress = &TABLES.progress[home];
        let hole = self.winning_hole();
        let target = self.target_cells(self.side as usize);
        self.for_each_piece(|from, mut dests| {
            let p0 = i32::from(progress[from]);
            let wins = if TABLES.bit[from] & target == 0 {
                hole
            } else {
                0
            };
            while dests != 0 {
                let to = dests.trailing_zeros() as usize;
                dests &= dests - 1;
                if i32::from(progress[to]) - p0 >= NOISY_ADVANCE || TABLES.bit[to] & wins != 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chinese_checkers::ChineseCheckersConfig;
    use crate::game::prelude::*;
    use std::sync::Mutex;

    /// Tests that change weights hold this (the weights are shared statics).
    static WEIGHTS: Mutex<()> = Mutex::new(());

    fn start(players: u8) -> ChineseCheckers {
        let config = ChineseCheckersConfig {
            players,
            ..ChineseCheckersConfig::default()
        };
        ChineseCheckers::startpos(&config)
    }

    /// A position after `plies` pseudo-random legal moves from the start (seeded).
    fn played(players: u8, plies: usize, seed: u64) -> ChineseCheckers {
        let mut pos = start(players);
        let mut state = seed;
        for _ in 0..plies {
            if pos.winner().is_some() {
                break;
            }
            let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
            pos.generate_moves(&mut list);
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let r = (state >> 33) as usize;
            // Every other move the most advancing one (from a random offset), so that games
            // get somewhere.
            let m = if r % 2 == 0 {
                (0..list.len())
                    .map(|i| list[(i + r) % list.len()])
                    .max_by_key(|&m| pos.advance(m))
                    .unwrap_or(list[0])
            } else {
                list[r % list.len()]
            };
            pos.make_move(m);
        }
        pos
    }

    /// The cell set turned half a turn about the centre.
    fn rotated(set: super::super::CellSet) -> super::super::CellSet {
        super::super::cells::cells_of(set)
            .map(|c| {
                let (x, y, z) = c.cube();
                Cell::all()
                    .find(|d| d.cube() == (-x, -y, -z))
                    .expect("the star is symmetric")
                    .bit()
            })
            .fold(0, |a, b| a | b)
    }

    /// The 2-player position with the roles swapped: side 0 gets side 1's pieces turned half a
    /// turn (so they stand in side 0's frame as side 1's stood in its own) and vice versa.
    fn swapped(p: &ChineseCheckers) -> ChineseCheckers {
        let mut pieces = [0; 6];
        pieces[0] = rotated(p.pieces(1));
        pieces[1] = rotated(p.pieces(0));
        let homes = [p.home(0), p.home(1)];
        ChineseCheckers::from_parts(&homes, pieces, p.side_to_move(), p.ply(), p.rules())
    }

    fn check_swaps() {
        for seed in 1..=20u64 {
            let p = played(2, 10 + 3 * seed as usize, seed);
            let q = swapped(&p);
            assert_eq!(q.evaluate(), -p.evaluate(), "{}", p.to_fen());
            let (tp, tq) = (p.eval_terms(), q.eval_terms());
            for ((n, a), (_, b)) in tp.iter().zip(&tq) {
                assert_eq!(*b, -*a, "term {n} of {}", p.to_fen());
            }
            // From the other side's view too.
            assert_eq!(p.evaluate_for(1), -p.evaluate_for(0));
        }
    }

    #[test]
    fn start_positions_evaluate_to_zero() {
        let _guard = WEIGHTS.lock();
        for players in [2, 3, 4, 6] {
            let p = start(players);
            for i in 0..players as usize {
                assert_eq!(p.evaluate_for(i), 0, "{players} players, side {i}");
            }
            assert!(p.eval_terms().iter().all(|(_, x)| *x == 0));
        }
    }

    #[test]
    fn swapping_the_roles_negates_the_evaluation_and_weights_act() {
        let _guard = WEIGHTS.lock();
        check_swaps();
        PIECES_DISTANCE.set(7).expect("in range");
        HOME_LATE_MOVES.set(0).expect("in range");
        check_swaps();
        PIECES_DISTANCE.reset();
        HOME_LATE_MOVES.reset();

        // Each weight at 0 zeroes its term and changes the total by that term alone.
        let terms: [(&crate::tune::Param, usize); 5] = [
            (&DISTANCE, 0),
            (&STRAGGLER, 2),
            (&HOME_LATE, 3),
            (&TARGET, 4),
            (&JUMP, 5),
        ];
        // Every weight on (a term off by default is switched on here).
        for &(param, _) in &terms {
            if param.get() == 0 {
                param.set(5).expect("in range");
            }
        }
        HOME_LATE_MOVES.set(0).expect("in range");
        let mut seen_nonzero = [false; NUM_TERMS];
        for seed in 1..=10u64 {
            let p = played(2, 40 + 2 * seed as usize, seed);
            let before = p.eval_terms();
            for &(param, k) in &terms {
                let weight = i64::from(param.get());
                param.set(0).expect("in range");
                let after = p.eval_terms();
                let e = p.evaluate();
                param.set(weight).expect("in range");
                assert_eq!(after[k].1, 0, "{}", param.name);
                assert_eq!(after[NUM_TERMS].1, before[NUM_TERMS].1 - before[k].1);
                assert_eq!(after[NUM_TERMS].1, e);
                seen_nonzero[k] |= before[k].1 != 0;
            }
            assert_eq!(before[NUM_TERMS].1, p.evaluate());
            assert_eq!(
                before[..NUM_TERMS].iter().map(|t| t.1).sum::<Value>(),
                p.evaluate()
            );
        }
        for &param in PARAMS {
            param.reset();
        }
        for (_, k) in terms {
            assert!(seen_nonzero[k], "term {} never differed", TERM_NAMES[k]);
        }
        // With the new weights at 0 the evaluation is the old distance-only one.
        for seed in 1..=10u64 {
            for players in [2, 3] {
                let p = played(players, 30, seed);
                for &param in &[&STRAGGLER, &HOME_LATE, &TARGET, &JUMP] {
                    param.set(0).expect("in range");
                }
                let e = p.evaluate();
                for &param in PARAMS {
                    param.reset();
                }
                assert_eq!(e, p.progress_score(), "{}", p.to_fen());
            }
        }
    }

    /// The distance and jump terms against a count from the cells' cube coordinates alone
    /// (the tables behind [`ChineseCheckers::side_terms`] are not used), in played positions of
    /// every player count, for every side.
    #[test]
    fn distance_and_jump_terms_follow_the_geometry() {
        let _guard = WEIGHTS.lock();
        let cube_at = |c: (i32, i32, i32)| Cell::all().find(|d| d.cube() == c);
        let mut jumps_seen = 0;
        for players in [2u8, 3, 4, 6] {
            for seed in 1..=12u64 {
                let p = played(players, 6 * seed as usize, seed);
                for i in 0..players as usize {
                    let home = p.home(i);
                    let (tx, ty, tz) = home.opposite().tip().cube();
                    let mut sum = 0;
                    let mut jumps = 0;
                    for c in super::super::cells::cells_of(p.pieces(i)) {
                        let (x, y, z) = c.cube();
                        sum += (x - tx).abs().max((y - ty).abs()).max((z - tz).abs());
                        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)] {
                            let over = cube_at((x + dx, y + dy, z - dx - dy));
                            let land = cube_at((x + 2 * dx, y + 2 * dy, z - 2 * dx - 2 * dy));
                            if let (Some(o), Some(l)) = (over, land) {
                                if p.occupied() & o.bit() != 0
                                    && p.occupied() & l.bit() == 0
                                    && home.progress(l) > home.progress(c)
                                {
                                    jumps += 1;
                                }
                            }
                        }
                    }
                    jumps_seen += jumps;
                    let t = p.side_terms(i);
                    assert_eq!(t[0], -DISTANCE.get() * sum, "{} side {i}", p.to_fen());
                    assert_eq!(t[5], JUMP.get() * jumps, "{} side {i}", p.to_fen());
                    assert_eq!(p.distance_to_target(i), sum as u32);
                }
            }
        }
        assert!(jumps_seen > 100, "only {jumps_seen} forward jumps");
    }

    #[test]
    fn progress_and_jumps_count_for_the_right_side() {
        let _guard = WEIGHTS.lock();
        // One step forward of side 0 from the start: its distance term improves by one cell.
        let mut p = start(2);
        let config = ChineseCheckersConfig::default();
        let m = p.parse_move("k3k5", &config).expect("legal");
        p.make_move(m);
        let t = p.terms_for(0);
        assert_eq!(t[0], DISTANCE.get() * 2);
        assert!(p.evaluate() < 0, "side 1 to move is behind");
    }
}
