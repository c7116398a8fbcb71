//! Chinese checkers for 1 to 6 players on the 121-cell star (rules and notation in
//! `shared/briefs/chinese-checkers.md`).
//!
//! - [`cells`]: cell names, neighbours, jump tables, the six triangles;
//! - [`movegen`]: steps and jump chains (a flood fill over `u128` cell sets), perft;
//! - [`fen`]: the position string and the `d` drawing;
//! - [`paths`]: a witness path for every move (for GUIs that do not know the rules);
//! - [`distance`]: plain (hex) distance and the "pieces distance" that uses jumps;
//! - [`eval`]: the evaluation (distance, stragglers, target, jumps) and the quiet horizon (`generate_noisy`).
//!
//! Extras beyond the [`Game`] trait, for protocol commands and evaluation:
//! - paths: [`ChineseCheckers::moves_with_paths`] (all moves, or those of one piece, each with
//!   a witness path), [`ChineseCheckers::move_path`] / [`ChineseCheckers::path_string`] (one
//!   move), [`paths::path_to_string`];
//! - distances: [`distance::plain_distance`] (lone piece, steps only = hex distance),
//!   [`ChineseCheckers::pieces_distances`] / [`ChineseCheckers::pieces_distance`] (jump chains
//!   over the pieces on the board count as one move);
//! - [`ChineseCheckers::destinations`] (the cells one piece may move to),
//!   [`ChineseCheckers::count_moves`], [`ChineseCheckers::perft_fast`], [`ChineseCheckers::winner`],
//!   [`ChineseCheckers::rules`], cells and triangles ([`Cell`], [`Triangle`]).

use std::fmt;

use arrayvec::ArrayVec;

use crate::game::setup::SetupOption;
use crate::game::Rules as _;
use crate::game::{
    Evaluation, GameError, GameMove, MoveList, Notation, Outcome, Records, SearchHints, Value,
};
use crate::tune::Param;

pub mod baselines;
pub mod cells;
pub mod distance;
pub mod eval;
pub mod fen;
pub mod greedy;
pub mod movegen;
pub mod paths;
mod setup;
mod zobrist;

pub use cells::{Cell, CellSet, Triangle, ALL_CELLS, NUM_CELLS};
pub use paths::MoveWithPath;
pub use setup::ChineseCheckersConfig;

use cells::TABLES;
use zobrist::KEYS;

/// The most pieces a player may have (each starts with ten and nothing is ever captured).
pub const MAX_PIECES_PER_PLAYER: usize = 10;

/// Capacity of the move list.
///
/// Only the side to move moves, with at most [`MAX_PIECES_PER_PLAYER`] = 10 pieces. One piece
/// has at most 6 step destinations, and its jump landings all lie on its own sublattice
/// (both coordinates change by an even amount), whose largest class holds 37 cells of the
/// star, so at most 36 jump destinations besides the start cell. 10 x (6 + 36) = 420.
/// (`tests/chinese_checkers_rules.rs` recomputes this bound from the tables.)
pub const MAX_MOVES: usize = 420;

const NO_WINNER: u8 = u8::MAX;

/// A move: a step or a jump chain written by its end points, or the pass `0000`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    /// The pass (`0000`), legal only when the side to move has no other move.
    pub const PASS: Move = Move {
        from: u8::MAX,
        to: u8::MAX,
    };

    /// The move of the piece on `from` to `to` (not checked for legality).
    pub fn new(from: Cell, to: Cell) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
        }
    }

    /// Whether this is the pass.
    #[inline]
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }

    /// The start cell (`None` for the pass or an invalid encoding).
    pub fn from_cell(self) -> Option<Cell> {
        Cell::from_index(self.from as usize)
    }

    /// The destination cell (`None` for the pass or an invalid encoding).
    pub fn to_cell(self) -> Option<Cell> {
        Cell::from_index(self.to as usize)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from_cell(), self.to_cell()) {
            (Some(a), Some(b)) if !self.is_pass() => write!(f, "{a}{b}"),
            _ => f.write_str("0000"),
        }
    }
}

impl GameMove for Move {
    #[inline]
    fn to_bits(self) -> u16 {
        u16::from(self.from) | (u16::from(self.to) << 8)
    }
    #[inline]
    fn from_bits(bits: u16) -> Self {
        Move {
            from: (bits & 0xFF) as u8,
            to: (bits >> 8) as u8,
        }
    }
}

/// The optional rule variants a position was created with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `goal-lock`: a piece standing in its own target may only move to cells of that
    /// triangle, at every landing of a chain.
    pub goal_lock: bool,
    /// `no-foreign-stop`: a move may not end in a triangle other than the mover's home or target.
    pub no_foreign_stop: bool,
}

/// The positions of `sanqi bench`: the 2-player and the 3-player start.
const BENCH_POSITIONS: &[&str] = &[
    "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0",
    "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0",
];

impl fmt::Display for Rules {
    /// `standard`, `goal-lock`, `no-foreign-stop` or `goal-lock,no-foreign-stop` (as in the perft file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.goal_lock, self.no_foreign_stop) {
            (false, false) => f.write_str("standard"),
            (true, false) => f.write_str("goal-lock"),
            (false, true) => f.write_str("no-foreign-stop"),
            (true, true) => f.write_str("goal-lock,no-foreign-stop"),
        }
    }
}

/// A Chinese-checkers position: the pieces, the seating, the side to move and the rules.
///
/// Sides are numbered by their place in the `players` string (turn order); each side is
/// the player of one home triangle.
#[derive(Clone, Debug)]
pub struct ChineseCheckers {
    /// Pieces of each side (turn index).
    pieces: [CellSet; 6],
    /// All pieces.
    occupied: CellSet,
    /// Home triangle of each side.
    homes: [Triangle; 6],
    /// For each triangle, the side whose target it is, or `NO_WINNER`.
    target_owner: [u8; 6],
    num_players: u8,
    side: u8,
    winner: u8,
    ply: u32,
    hash: u64,
    rules: Rules,
}

impl ChineseCheckers {
    /// Builds a position from its parts (used by the position-string parser).
    fn from_parts(
        homes: &[Triangle],
        pieces: [CellSet; 6],
        side: usize,
        ply: u32,
        rules: Rules,
    ) -> ChineseCheckers {
        let mut pos = ChineseCheckers {
            pieces,
            occupied: pieces.iter().fold(0, |a, &p| a | p),
            homes: [Triangle::ALL[0]; 6],
            target_owner: [NO_WINNER; 6],
            num_players: homes.len() as u8,
            side: side as u8,
            winner: NO_WINNER,
            ply,
            hash: 0,
            rules,
        };
        for (i, &home) in homes.iter().enumerate() {
            pos.homes[i] = home;
            pos.target_owner[home.opposite().index()] = i as u8;
        }
        for i in 0..homes.len() {
            if pos.has_won(i) {
                pos.winner = i as u8;
                break;
            }
        }
        pos.hash = pos.compute_hash();
        pos
    }

    /// The hash computed from scratch.
    fn compute_hash(&self) -> u64 {
        let mut h = KEYS.side[self.side as usize];
        for i in 0..self.num_players as usize {
            let letter = self.homes[i].index();
            for c in cells::cells_of(self.pieces[i]) {
                h ^= KEYS.piece[letter][c.index()];
            }
        }
        h
    }

    /// Whether side `i` has won: its target is full and holds at least one of its pieces.
    fn has_won(&self, i: usize) -> bool {
        let t = self.target_cells(i);
        self.occupied & t == t && self.pieces[i] & t != 0
    }

    /// The cells of the target triangle of side `i`.
    #[inline]
    fn target_cells(&self, i: usize) -> CellSet {
        TABLES.triangle[self.homes[i].opposite().index()]
    }

    /// Where a move of side `i` may end: every cell, or under `no-foreign-stop` the central
    /// hexagon and the side's home and target.
    #[inline]
    fn stop_cells(&self, i: usize) -> CellSet {
        if self.rules.no_foreign_stop {
            let home = self.homes[i].index();
            let target = self.homes[i].opposite().index();
            cells::HEXAGON | TABLES.triangle[home] | TABLES.triangle[target]
        } else {
            ALL_CELLS
        }
    }

    /// The rule variants of this position.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The home triangle of side `i` (turn index); panics if `i >= num_players()`.
    pub fn home(&self, i: usize) -> Triangle {
        assert!(i < self.num_players as usize, "no side {i}");
        self.homes[i]
    }

    /// The target triangle of side `i` (the one opposite its home).
    pub fn target(&self, i: usize) -> Triangle {
        self.home(i).opposite()
    }

    /// The `players` string: home letters in turn order.
    pub fn players(&self) -> String {
        self.homes[..self.num_players as usize]
            .iter()
            .map(|t| t.letter())
            .collect()
    }

    /// The pieces of side `i` (empty for an unknown side).
    pub fn pieces(&self, i: usize) -> CellSet {
        if i < self.num_players as usize {
            self.pieces[i]
        } else {
            0
        }
    }

    /// All pieces on the board.
    pub fn occupied(&self) -> CellSet {
        self.occupied
    }

    /// The side (turn index) whose piece stands on `cell`, if any.
    pub fn side_at(&self, cell: Cell) -> Option<usize> {
        (0..self.num_players as usize).find(|&i| self.pieces[i] & cell.bit() != 0)
    }

    /// Moves played so far (passes included).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The side that has won, if any.
    pub fn winner(&self) -> Option<usize> {
        (self.winner != NO_WINNER).then_some(self.winner as usize)
    }
}

impl ChineseCheckers {
    /// Moves side `s`'s piece between `from` and `to` (either way: make and undo are the same
    /// toggle of the two cells, the occupancy and the hash).
    #[inline]
    fn toggle_piece(&mut self, s: usize, from: usize, to: usize) {
        let change = (1u128 << from) | (1u128 << to);
        self.pieces[s] ^= change;
        self.occupied ^= change;
        let letter = self.homes[s].index();
        self.hash ^= KEYS.piece[letter][from] ^ KEYS.piece[letter][to];
    }

    /// The turn passes to the next seat (hash, side and ply; the board is untouched).
    #[inline]
    fn pass_turn(&mut self) {
        let s = self.side as usize;
        let next = if s + 1 == self.num_players as usize {
            0
        } else {
            s + 1
        };
        self.hash ^= KEYS.side[s] ^ KEYS.side[next];
        self.side = next as u8;
        self.ply = self.ply.wrapping_add(1);
    }

    /// Takes back [`ChineseCheckers::pass_turn`].
    #[inline]
    fn unpass_turn(&mut self) {
        let next = self.side as usize;
        let s = if next == 0 {
            self.num_players as usize - 1
        } else {
            next - 1
        };
        self.hash ^= KEYS.side[s] ^ KEYS.side[next];
        self.side = s as u8;
        self.ply = self.ply.wrapping_sub(1);
    }
}

impl crate::game::Rules for ChineseCheckers {
    type Move = Move;
    type MoveList = MoveList<Move, MAX_MOVES>;
    type Config = ChineseCheckersConfig;
    const NAME: &'static str = "chinesecheckers";
    const SETUP: &'static [SetupOption<ChineseCheckersConfig>] = setup::SETUP;

    fn startpos(config: &ChineseCheckersConfig) -> Self {
        let text = fen::startpos_string(config.players);
        match ChineseCheckers::from_fen(text, config) {
            Ok(pos) => pos,
            // The start strings are constants checked by the tests.
            Err(e) => unreachable!("bad built-in start position: {e}"),
        }
    }

    fn num_players(&self) -> usize {
        self.num_players as usize
    }

    fn side_to_move(&self) -> usize {
        self.side as usize
    }

    fn generate_moves(&self, list: &mut Self::MoveList) {
        list.clear();
        self.generate_into(list);
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        debug_assert_eq!(self.winner, NO_WINNER, "move made in a won position");
        let s = self.side as usize;
        self.pass_turn();
        if m.is_pass() {
            return;
        }
        let (from, to) = (m.from as usize, m.to as usize);
        self.toggle_piece(s, from, to);
        // Only the triangle of the destination can have become won.
        let tri = TABLES.triangle_of[to];
        if tri != cells::NO_CELL {
            let owner = self.target_owner[tri as usize];
            if owner != NO_WINNER && self.has_won(owner as usize) {
                self.winner = owner;
            }
        }
    }

    #[inline]
    fn undo_move(&mut self, m: Move) {
        self.unpass_turn();
        let s = self.side as usize;
        // Moves are only made in positions without a winner.
        self.winner = NO_WINNER;
        if m.is_pass() {
            return;
        }
        self.toggle_piece(s, m.from as usize, m.to as usize);
    }

    /// Passes the turn (used by best-reply search to let one opponent move while the others
    /// pass); not offered to null-move pruning ([`SearchHints::can_null_move`] stays false).
    fn make_null_move(&mut self) {
        self.pass_turn();
    }

    fn undo_null_move(&mut self) {
        self.unpass_turn();
    }

    /// A side without a move passes.
    fn can_pass(&self) -> bool {
        true
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    /// Never reached in play (a side without a move passes); a position without moves is a
    /// won one, so this names the winner if there is one and a draw otherwise.
    fn no_moves_outcome(&self) -> Outcome {
        self.winner().map_or(Outcome::Draw, Outcome::Win)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
}

impl Notation for ChineseCheckers {
    const FEN_RANKS: usize = 17;

    fn from_fen(text: &str, config: &ChineseCheckersConfig) -> Result<Self, GameError> {
        fen::parse(text, config.rules)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    fn display(&self) -> String {
        fen::draw(self)
    }

    /// `player 1 (home A)`: the player's number and home triangle.
    fn player_name(&self, player: usize) -> String {
        format!("player {} (home {})", player + 1, self.home(player))
    }

    fn parse_move(&self, text: &str, _config: &ChineseCheckersConfig) -> Result<Move, GameError> {
        fen::parse_move(self, text)
    }

    fn format_move(&self, m: Move, _config: &ChineseCheckersConfig) -> String {
        m.to_string()
    }

    /// `path k3 k5 k7`: the cells of the move's jump chain (none for the pass).
    fn annotate_move(&self, m: Move) -> Option<String> {
        self.path_string(m)
            .filter(|p| !p.is_empty())
            .map(|p| format!("path {p}"))
    }

    /// Each move with its witness path (`k3k5 path k3 k5`); `filter` is a cell, and only the
    /// moves of the piece on it are listed.
    fn list_moves(
        &self,
        filter: Option<&str>,
        _config: &ChineseCheckersConfig,
    ) -> Result<Vec<String>, GameError> {
        let cell = filter.map(str::parse::<Cell>).transpose()?;
        Ok(self
            .moves_with_paths(cell)
            .into_iter()
            .map(|mp| format!("{} path {}", mp.mv, paths::path_to_string(&mp.path)))
            .collect())
    }
}

impl Evaluation for ChineseCheckers {
    const PARAMS: &'static [&'static Param] = eval::PARAMS;

    // Two players: no draws but at the ply cap, so a = 0 (88,420 positions of 2,500 games).
    const WDL: Option<&'static crate::game::wdl::WdlModel> = Some(&crate::game::wdl::WdlModel {
        weights: &[],
        lo: 0.0,
        hi: 1.0,
        reference: 1.0,
        a: [0.0; 4],
        b: [0.0, 0.0, 0.0, 33.9362],
    });

    fn evaluate(&self) -> Value {
        self.evaluation_for(self.side as usize)
    }

    fn eval_terms(&self) -> Vec<(String, Value)> {
        self.evaluation_terms()
    }

    fn evaluate_for(&self, player: usize) -> Value {
        self.evaluation_for(player)
    }
}

impl SearchHints for ChineseCheckers {
    const SEARCH_LABEL: &'static str = "CC";

    // The two-player techniques added for chess and xiangqi (issue 13) were not measured here:
    // off, so Chinese checkers searches as before.
    const SEARCH_DEFAULTS: &'static [(&'static str, i32)] = &[
        ("Use QS TT", 0),
        ("Use Improving", 0),
        ("LMR History Divisor", 0),
        ("Use IIR", 0),
        ("Use SEE Pruning", 0),
        ("Use Bad Noisy Last", 0),
        ("Use TT Eval", 0),
        ("Use History Pruning", 0),
        ("NMP Eval Divisor", 0),
        ("Use Razoring", 0),
        ("Use Capture History", 0),
        ("Use Correction History", 0),
    ];

    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 7;

    fn generate_noisy(&self, list: &mut Self::MoveList) {
        list.clear();
        self.generate_noisy_into(list);
    }

    /// Long forward jumps, and moves that fill the target (so that no pruning skips a win).
    fn is_noisy(&self, m: Move) -> bool {
        self.advance(m) >= eval::NOISY_ADVANCE || self.is_winning_move(m)
    }

    /// Forward jumps never run out, so quiescence looks at most two plies past the horizon
    /// (measured: depth 8 in one second from the 2-player start, against depth 0 without a bound).
    fn quiescence_plies(&self) -> u32 {
        2
    }

    /// Winning moves first, then by rows advanced.
    fn noisy_order(&self, m: Move) -> i32 {
        if self.is_winning_move(m) {
            100
        } else {
            self.advance(m)
        }
    }

    /// The greedy move (tie seed 0): opponents modelled as racing for themselves.
    fn policy_move(&self) -> Option<Move> {
        greedy::greedy_choice(self, 0)
    }

    /// A move of the greedy rule's best (gain, rearness) key, whatever the tie seed.
    fn is_policy_move(&self, m: Move) -> bool {
        greedy::is_greedy(self, m)
    }

    /// Greedy, rear piece first, longest jump first ([`greedy::Player::MODELS`]).
    fn policy_rules(&self) -> usize {
        greedy::Player::MODELS.len()
    }

    fn policy_move_of(&self, rule: usize) -> Option<Move> {
        greedy::Player::MODELS.get(rule)?.choice(self, 0)
    }

    fn is_policy_move_of(&self, rule: usize, m: Move) -> bool {
        greedy::Player::MODELS
            .get(rule)
            .is_some_and(|&r| baselines::is_rule_move(self, r, m))
    }

    fn policy_ties_of(
        &self,
        rule: usize,
        out: &mut ArrayVec<Move, { crate::game::MAX_POLICY_TIES }>,
    ) -> Option<Move> {
        match greedy::Player::MODELS.get(rule) {
            // Tie seed 0, as `policy_move_of`.
            Some(&r) => baselines::rule_ties(self, r, 0, out),
            None => {
                out.clear();
                None
            }
        }
    }

    /// The rule player's move when `CC Player` is not `search` ([`greedy`], [`baselines`]).
    fn rule_move(&self, config: &ChineseCheckersConfig) -> Option<Move> {
        config.player.choice(self, config.greedy_seed)
    }
}

impl Records for ChineseCheckers {
    fn outcome_reason(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win(_) => "(target triangle filled)".to_string(),
            Outcome::Draw => "by rule".to_string(),
        }
    }

    /// Each player's distance to its target.
    fn progress(&self) -> Option<Vec<u32>> {
        Some(
            (0..self.num_players())
                .map(|i| self.distance_to_target(i))
                .collect(),
        )
    }
}
