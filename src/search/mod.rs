//! Generic search over the [`crate::game::Game`] trait, compiled once per game.
//!
//! # Overview
//! * [`Searcher`] is the object the engine keeps between searches: the shared
//!   [`TranspositionTable`] and one set of ordering tables (history, killers, counter moves)
//!   per thread. [`Searcher::clear`] is `ucinewgame`.
//! * [`Searcher::search`] (or the free function [`search`]) runs one `go`: iterative deepening
//!   with aspiration windows at the root, principal variation search, quiescence search over
//!   [`crate::game::SearchHints::generate_noisy`] (every move when in check), a check extension,
//!   mate-distance scores ([`MATE`] minus the plies to mate), and draws and wins by rule from
//!   [`crate::game::Rules::rule_outcome`] (the position keeps its history, so repetitions along
//!   the search path count) and [`crate::game::Rules::no_moves_outcome`].
//! * Move ordering ([`ordering`]): table move, noisy moves by `noisy_order`, killers, counter
//!   move, history plus continuation history. Quiescence stops after
//!   [`crate::game::SearchHints::quiescence_plies`] plies (unbounded by default). Pruning: null move (only where `can_null_move` and not in check), reverse
//!   futility, futility, late-move pruning, late-move reductions, all conservative.
//! * Lazy SMP ([`threads`]): `threads` workers share the table; helpers start at staggered
//!   depths; the main worker's result is reported. With one thread and a `nodes` limit the
//!   search is deterministic (the same events and result twice after [`Searcher::clear`]).
//! * More than two players ([`multiplayer`]): best-reply search or paranoid ([`MULTIPLAYER_ALGORITHM`]).
//! * Time ([`time`]): soft and hard limits from the clock; the clock and the stop flag are
//!   looked at every 1024 nodes. `go infinite` and `go ponder` never return by themselves:
//!   after the last iteration the search waits for `stop` (or for `ponderhit`, after which the
//!   normal limits apply, counted from the start of `go`).
//!
//! * Files: the two-player principal variation search and its quiescence are `pvs.rs`, the
//!   search with more than two players (paranoid, best reply, the opponent model) is
//!   `multiplayer_search.rs`; both start below `root.rs` (the root moves) and share `worker.rs`
//!   (the [`threads`] worker's bookkeeping: node counting and limits, the table, ordering,
//!   principal variation), [`tt`], [`ordering`] and [`params`] (tunable values and switches).
//!
//! Every search thread runs on its own thread with a large stack (64 MiB reserved, touched only
//! as needed), so the caller's thread only relays [`SearchEvent`]s to the `report` callback.

pub mod catalog;
mod limits;
pub mod multiplayer;
mod multiplayer_search;
pub mod ordering;
pub mod params;
pub(crate) mod pool;
mod prefetch;
mod pvs;
mod root;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;
mod worker;

use std::sync::Arc;

use crate::game::Searchable;
use pool::Pool;

pub use limits::{SearchControl, SearchLimits, SearchOptions};
pub use multiplayer::MULTIPLAYER_ALGORITHM;
pub use ordering::ThreadState;
pub use tt::{Bound, TranspositionTable, TtEntry};

/// The search parameters that serve every game (UCI spin options, `spsa`): the multi-player
/// ones and the time rule's. Each game's own are [`params::for_game`].
pub fn shared_params() -> impl Iterator<Item = &'static crate::tune::Param> {
    multiplayer::PARAMS.iter().chain(time::PARAMS).copied()
}

/// Score of a side that mates at once (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// The deepest ply a search reaches (quiescence and extensions included).
pub const MAX_PLY: usize = 128;
/// Scores at or beyond +-MATE_BOUND are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A win the endgame tables prove, `ply` plies from the root: `TB_WIN - ply` (below every mate
/// score, above every evaluation).
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores from `TB_BOUND` to `TB_WIN` are table wins.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// A table win is shown as `cp (TB_CP - ply)` (as Stockfish shows its table wins).
pub const TB_CP: i32 = 20_000;
/// Larger than every score.
pub const INFINITY: i32 = MATE + 1;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 100;

/// A score as the protocols print it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchScore {
    /// Centipawn-like units.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move gets mated
    /// (UCI convention: `score mate -2`).
    Mate(i32),
}

impl SearchScore {
    /// Converts an internal score (see [`MATE`]).
    pub fn from_internal(score: i32) -> SearchScore {
        if (TB_BOUND..MATE_BOUND).contains(&score.abs()) {
            // A table win or loss `TB_WIN - |score|` plies away, shown as Stockfish does.
            SearchScore::Cp(score.signum() * (TB_CP - (TB_WIN - score.abs())))
        } else if score >= MATE_BOUND {
            SearchScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            SearchScore::Mate(-((MATE + score + 1) / 2))
        } else {
            SearchScore::Cp(score)
        }
    }
}

/// One completed iteration (one line per MultiPV index), or a bound after an aspiration
/// window failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo<M> {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score of this line.
    pub score: SearchScore,
    /// [`Bound::Exact`], or [`Bound::Lower`]/[`Bound::Upper`] after a failed aspiration window.
    pub bound: Bound,
    /// Nodes of all threads so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table use in permille.
    pub hashfull: u32,
    /// Endgame-table hits of all threads (`None` without tables).
    pub tbhits: Option<u64>,
    /// Milliseconds since the start of the search.
    pub time_ms: u64,
    /// The principal variation, starting with the root move.
    pub pv: Vec<M>,
}

/// What the search reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent<M> {
    /// An iteration (or MultiPV line) finished.
    Iteration(IterationInfo<M>),
    /// The root move being searched (only after the first second).
    CurrMove {
        /// Depth of the iteration.
        depth: u32,
        /// The move.
        mv: M,
        /// 1-based number of the move in the root move order.
        number: usize,
    },
}

/// The outcome of one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play: always legal when the position has a legal move (and among the
    /// allowed root moves), `None` only when there is no legal move.
    pub best: Option<M>,
    /// The expected reply, if known.
    pub ponder: Option<M>,
    /// Score of `best` (for no legal move: the game's result for the side to move).
    pub score: SearchScore,
    /// The same score in internal units (mate in `n` plies is `MATE - n`; 0 for a draw).
    pub value: i32,
    /// The last completed depth (0 if none).
    pub depth: u32,
    /// Deepest ply reached (0 if none).
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The line the search expects, starting with `best` (empty without a legal move); the
    /// front end prints it in the final `info` before `bestmove`, so the two always agree.
    pub pv: Vec<M>,
    /// Endgame-table hits of all threads (`None` without tables).
    pub tbhits: Option<u64>,
}

/// State kept by the engine between searches: the transposition table, the search threads and
/// the per-thread ordering tables.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    pool: Pool,
    threads: Vec<ThreadState>,
}

impl Searcher {
    /// A searcher with a table of about `hash_mb` mebibytes and one search thread.
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: Pool::new(1),
            threads: Vec::new(),
        }
    }

    /// Starts or ends search threads so that `n` (at least 1) are ready for the next search
    /// (`Threads` option); returns how many run, fewer when the system refused more. A search
    /// asking for more threads than run starts the missing ones itself.
    pub fn set_threads(&mut self, n: usize) -> usize {
        self.pool.resize(n.max(1))
    }

    /// Search threads running now.
    pub fn thread_count(&self) -> usize {
        self.pool.len()
    }

    /// The transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Reallocates the table (`Hash` option); its contents are lost.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.resize(mb),
            // No search runs between searches, so this is not expected; a fresh table is as good.
            None => {
                let mut tt = TranspositionTable::new(1);
                tt.resize(mb)?;
                self.tt = Arc::new(tt);
                Ok(())
            }
        }
    }

    /// Empties the table only (`Clear Hash`).
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// Forgets everything learnt: table, histories, killers (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.clear();
        }
    }

    /// Runs one search of `position` (see the module documentation).
    ///
    /// `root_moves` restricts the moves considered at the root (`searchmoves`, UCCI
    /// `banmoves` turned into the allowed set by the caller); moves in it that are not legal
    /// are ignored; if none is legal there is no move to play (`best` is `None`, after `stop`
    /// for `infinite` and `ponder`, as without legal moves). `report` is called on
    /// the caller's thread for every [`SearchEvent`]. The function returns when the search is
    /// over (for `infinite` and `ponder`: only after `stop`, or after `ponderhit` and the normal
    /// limits).
    pub fn search<G: Searchable>(
        &mut self,
        position: &G,
        limits: &SearchLimits,
        options: &SearchOptions,
        root_moves: Option<&[G::Move]>,
        control: &SearchControl,
        report: &mut dyn FnMut(SearchEvent<G::Move>),
    ) -> SearchResult<G::Move> {
        threads::run(
            &self.tt,
            &mut self.pool,
            &mut self.threads,
            position,
            limits,
            options,
            root_moves,
            control,
            report,
        )
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16)
    }
}

/// Runs one search: the same as [`Searcher::search`].
pub fn search<G: Searchable>(
    searcher: &mut Searcher,
    position: &G,
    limits: &SearchLimits,
    options: &SearchOptions,
    root_moves: Option<&[G::Move]>,
    control: &SearchControl,
    report: &mut dyn FnMut(SearchEvent<G::Move>),
) -> SearchResult<G::Move> {
    searcher.search(position, limits, options, root_moves, control, report)
}

/// Searches every position to `depth` with one thread and a 16 MiB table, cleared before
/// each position, and returns the total node count (the `bench` signature).
pub fn bench<G: Searchable>(positions: &[G], depth: u32) -> u64 {
    let mut searcher = Searcher::new(16);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let control = SearchControl::new();
    positions
        .iter()
        .map(|p| {
            searcher.clear();
            searcher
                .search(
                    p,
                    &limits,
                    &SearchOptions::default(),
                    None,
                    &control,
                    &mut |_| {},
                )
                .nodes
        })
        .sum()
}
