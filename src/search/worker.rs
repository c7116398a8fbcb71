//! What the two searches share: the [`Worker`] (one search thread) and its bookkeeping (node
//! counting and the looks at the limits, the principal variation, the table's entries and
//! cutoffs, move ordering, history updates), the [`Shared`] state of all threads, and the root
//! moves. The root search is in [`super::root`], the two-player principal variation search in
//! [`super::pvs`], the search with more than two players in [`super::multiplayer_search`].
//!
//! Scores are from the point of view of the team to move (see [`super::multiplayer`]): with two
//! players this is plain negamax.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

use crate::game::{GameMove, MoveBuffer, Searchable};

use super::limits::SearchControl;
use super::multiplayer::Teams;
use super::ordering::{history_bonus, score_moves, OrderFlags, ThreadState, NO_MOVE};
use super::params::{self, Settings};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::{SearchEvent, INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_BOUND};

/// Static evaluations are clamped into +-EVAL_MAX so they never look like mate or endgame-table
/// scores.
pub(super) const EVAL_MAX: i32 = TB_BOUND - 1;
/// Nodes between two looks at the clock and the stop flags.
const POLL_INTERVAL: u64 = 1024;

/// State shared by all threads of one search.
pub(crate) struct Shared {
    pub tt: Arc<TranspositionTable>,
    pub control: SearchControl,
    /// Set by the main thread when it is done (or by any limit): every worker stops.
    pub abort: AtomicBool,
    /// Node counts published by each worker every [`POLL_INTERVAL`] nodes.
    pub nodes: Vec<AtomicU64>,
    pub time: TimeManager,
    pub infinite: bool,
    pub node_limit: Option<u64>,
    /// Endgame-table probes that gave a result (root ranking included).
    pub tb_hits: AtomicU64,
    /// Whether the search probes the tables below the root.
    pub tb_probes: bool,
    /// Whether the game has tables in use (`tbhits` is then reported).
    pub tb_loaded: bool,
    /// The root moves the tables ranked (as move bits) with the score to show for each while
    /// the search finds no mate; empty when the root is not in the tables.
    pub table_scores: Vec<(u16, i32)>,
}

impl Shared {
    /// Whether time limits apply now (not while pondering or in `go infinite`).
    pub fn time_applies(&self) -> bool {
        !self.infinite && !self.control.is_pondering()
    }

    /// The score shown for root move `bits` with search score `score`: the tables' score where
    /// the root is in the tables and the search found no mate.
    pub fn shown_score(&self, bits: u16, score: i32) -> i32 {
        if score.abs() >= super::MATE_BOUND {
            return score;
        }
        self.table_scores
            .iter()
            .find(|(b, _)| *b == bits)
            .map_or(score, |&(_, s)| s)
    }

    /// Whether the search must end (external `stop` or internal abort).
    pub fn must_stop(&self) -> bool {
        self.abort.load(Relaxed) || self.control.is_stopped()
    }
}

/// One root move with its latest result.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<M> {
    pub mv: M,
    pub score: i32,
    pub previous_score: i32,
    /// Whether the score came from a search that raised alpha in the current iteration.
    pub improved: bool,
    pub seldepth: usize,
    pub pv: Vec<M>,
    /// Nodes this worker spent below the move, over all iterations (time management).
    pub nodes: u64,
}

/// Converts a score to the form stored in the table: mate and endgame-table distances are
/// counted from the node, not the root (as Stockfish's `value_to_tt`).
#[inline]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// The inverse of [`score_to_tt`]. A table win or loss stays one (at least [`TB_BOUND`]) when
/// its distance and the ply together pass the cap.
#[inline]
pub(crate) fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else if s >= TB_BOUND {
        (s - ply as i32).max(TB_BOUND)
    } else if s <= -TB_BOUND {
        (s + ply as i32).min(-TB_BOUND)
    } else {
        s
    }
}

/// The score a table entry proves for a non-PV node searched to `depth` with the window
/// `alpha..beta`, if its depth and bound suffice.
#[inline]
pub(super) fn tt_cutoff(
    e: &TtEntry,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    pv_node: bool,
) -> Option<i32> {
    if pv_node || i32::from(e.depth) < depth {
        return None;
    }
    let s = score_from_tt(e.score, ply);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// The bound a node's best score `best` gives, searched with the window `alpha..beta`: at least
/// `best` when it reached beta, exact when it raised alpha, at most `best` otherwise.
#[inline]
pub(super) fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// One search thread.
pub(crate) struct Worker<'a, G: Searchable> {
    pub id: usize,
    pub shared: &'a Shared,
    pub state: &'a mut ThreadState,
    pub teams: Teams,
    /// The modelled opponents' policy moves and ties by position (multi-player search).
    pub(super) policy: super::multiplayer::PolicyCache<G::Move>,
    /// Xored into every table key ([`Teams::key_salt`]: zero with two players).
    pub(super) key_salt: u64,
    pub nodes: u64,
    /// The other threads' nodes as last published (main worker only).
    others_nodes: u64,
    /// All threads' nodes at which the search stops (`go nodes`; main worker only).
    node_limit: u64,
    pub stopped: bool,
    pub seldepth: usize,
    pub root_depth: i32,
    pub completed_depth: u32,
    /// The triangular table of principal variations, one row of [`PV_WIDTH`] per ply.
    pub(super) pv: Vec<G::Move>,
    /// Where each ply's principal variation ends in its row.
    pub(super) pv_len: Vec<usize>,
    /// The move played at each ply of the current line (ordering: counter moves).
    pub(super) played: Vec<u32>,
    /// The ordering scores of the move lists of the current line, one list after the other.
    pub(super) scores: Vec<i32>,
    pub root_moves: Vec<RootMove<G::Move>>,
    /// Late-move reductions by depth and move number.
    pub(super) lmr: Vec<[u8; 64]>,
    /// The plies of quiescence after which the side to move stands pat (the game's own).
    pub(super) quiescence_plies: u32,
    /// The game's search parameters and switches, read once per search.
    pub s: Settings,
    /// Whether the two-player quiescence search uses the table (the `Use QS TT` switch, and a
    /// quiescence that ends by itself).
    pub(super) qs_tt: bool,
    /// The ordering refinements in use (from the switches and the players).
    pub(super) order_flags: OrderFlags,
    /// The static evaluation of each ply of the current line (-INFINITY: in check; two players).
    pub(super) evals: Vec<i32>,
    /// The move a singular-extension search of each ply leaves out (two players).
    pub(super) excluded: Vec<Option<u16>>,
    /// Where the main thread sends its reports (`None` in helper threads).
    pub events: Option<Sender<SearchEvent<G::Move>>>,
}

/// Length of one row of the triangular principal-variation table.
const PV_WIDTH: usize = MAX_PLY + 1;

impl<'a, G: Searchable> Worker<'a, G> {
    pub fn new(
        id: usize,
        shared: &'a Shared,
        state: &'a mut ThreadState,
        root: &G,
        root_moves: Vec<G::Move>,
        policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
    ) -> Self {
        let teams = Teams::for_position(root, policy_players);
        let s = params::for_game::<G>().settings();
        state.prepare(root.num_players());
        let mut lmr = vec![[0u8; 64]; 64];
        let divisor = f64::from(s.lmr_divisor.max(1));
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() * 100.0 / divisor) as u8;
            }
        }
        let node_limit = if id == 0 {
            shared.node_limit.unwrap_or(u64::MAX)
        } else {
            u64::MAX
        };
        Worker {
            id,
            shared,
            state,
            teams,
            policy: super::multiplayer::PolicyCache::new(),
            key_salt: teams.key_salt(),
            nodes: 0,
            others_nodes: 0,
            node_limit,
            stopped: false,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            pv: vec![G::Move::default(); PV_WIDTH * PV_WIDTH],
            pv_len: vec![0; PV_WIDTH + 1],
            played: vec![NO_MOVE; PV_WIDTH + 1],
            scores: Vec::with_capacity(4096),
            root_moves: root_moves
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITY,
                    previous_score: -INFINITY,
                    improved: false,
                    seldepth: 0,
                    pv: vec![mv],
                    nodes: 0,
                })
                .collect(),
            lmr,
            quiescence_plies: root.quiescence_plies(),
            qs_tt: s.use_qs_tt && root.quiescence_plies() == u32::MAX,
            order_flags: OrderFlags {
                bad_noisy_last: s.use_bad_noisy_last && !teams.paranoid && !teams.brs,
                capture_history: s.use_capture_history,
            },
            evals: vec![-INFINITY; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            s,
            events: None,
        }
    }

    /// Orders the root moves before the first iteration (table move, noisy, history).
    pub fn order_root_moves(&mut self, pos: &G) {
        let tt_move = self
            .shared
            .tt
            .probe(pos.hash() ^ self.key_salt)
            .and_then(|e| e.mv);
        let moves: Vec<G::Move> = self.root_moves.iter().map(|r| r.mv).collect();
        let mut scores = Vec::new();
        score_moves(
            pos,
            &moves,
            &mut scores,
            self.state,
            tt_move,
            0,
            NO_MOVE,
            NO_MOVE,
            self.order_flags,
        );
        let mut keyed: Vec<(i32, usize)> = scores.into_iter().zip(0..).collect();
        keyed.sort_by_key(|&(s, i)| (-s, i));
        let old = std::mem::take(&mut self.root_moves);
        self.root_moves = keyed.into_iter().map(|(_, i)| old[i].clone()).collect();
    }

    /// Total nodes of all threads as this worker last saw them.
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.others_nodes
    }

    /// Publishes the node count and refreshes the view of the other threads.
    pub fn publish(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
        if self.id == 0 {
            self.others_nodes = self
                .shared
                .nodes
                .iter()
                .skip(1)
                .map(|n| n.load(Relaxed))
                .sum();
        }
    }

    /// Counts a node and looks at the limits now and then.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes + self.others_nodes >= self.node_limit {
            self.stopped = true;
            self.shared.abort.store(true, Relaxed);
        }
        if self.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
    }

    /// Publishes the node count and stops at the stop flags or, in the main worker, when the
    /// hard time limit has passed.
    fn poll(&mut self) {
        self.publish();
        if self.shared.must_stop() {
            self.stopped = true;
        }
        // Also inside depth 1: the best root move searched so far, or the fallback, is played
        // (with many players depth 1 alone may take longer than a short `movetime`).
        if self.id == 0 && self.shared.time_applies() && self.shared.time.hard_expired() {
            self.stopped = true;
            self.shared.abort.store(true, Relaxed);
        }
    }

    /// Writes a node's result to the table (score made ply-independent, eval and depth clamped).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: u64,
        ply: usize,
        best: i32,
        best_move: Option<u16>,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        self.shared.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: eval.clamp(-EVAL_MAX, EVAL_MAX) as i16,
                depth: depth.clamp(0, 127) as u8,
                bound,
            },
        );
    }

    /// What every node of both searches does first (after its own `depth <= 0` test): stop when
    /// told or when the clock says so, note the selective depth, and end the node when the
    /// game's rules end it here or the ply cap is reached. `Some(score)`: the node's score.
    #[inline]
    pub(super) fn node_start(&mut self, pos: &G, ply: usize) -> Option<i32> {
        if self.stopped {
            return Some(0);
        }
        self.tick();
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = pos.search_outcome(ply, self.s.use_twofold) {
            return Some(self.teams.outcome_score(outcome, pos.side_to_move(), ply));
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos));
        }
        None
    }

    /// Static evaluation for the team to move, clamped below mate scores.
    #[inline]
    pub(super) fn evaluate(&self, pos: &G) -> i32 {
        let e = if self.teams.paranoid {
            let e = pos.evaluate_for(self.teams.root);
            if pos.side_to_move() == self.teams.root {
                e
            } else {
                -e
            }
        } else {
            pos.evaluate()
        };
        // With `Use Fifty Scale`, toward a draw as the rule's counter grows: 1 at 0 plies, 1/2
        // when the rule ends the game.
        let e = match self.s.use_fifty_scale.then(|| pos.draw_clock()).flatten() {
            Some((clock, limit)) if limit > 0 => {
                let span = 2 * i64::from(limit);
                let left = span - i64::from(clock.min(limit));
                (i64::from(e) * left / span) as i32
            }
            _ => e,
        };
        e.clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// The move played at the ply before `ply` ([`NO_MOVE`] at the root).
    #[inline]
    pub(super) fn previous(&self, ply: usize) -> u32 {
        if ply == 0 {
            NO_MOVE
        } else {
            self.played[ply - 1]
        }
    }

    /// With `Use Followup History`, the move played two plies before `ply` (in two-player games
    /// the mover's own previous move); [`NO_MOVE`] near the root and with the switch off.
    #[inline]
    pub(super) fn before(&self, ply: usize) -> u32 {
        if self.s.use_followup_history && ply >= 2 {
            self.played[ply - 2]
        } else {
            NO_MOVE
        }
    }

    /// Makes `m` followed by the child's line the principal variation of `ply`.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let row = ply * PV_WIDTH;
        let child_row = (ply + 1) * PV_WIDTH;
        self.pv[row + ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[row + j] = self.pv[child_row + j];
        }
        self.pv_len[ply] = child_len;
    }

    /// Scores `moves` for ordering with this search's flags, appended to `self.scores`; returns
    /// where their scores start.
    pub(super) fn order_moves(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        tt_move: Option<u16>,
        ply: usize,
    ) -> usize {
        let base = self.scores.len();
        let previous = self.previous(ply);
        let before = self.before(ply);
        score_moves(
            pos,
            moves,
            &mut self.scores,
            self.state,
            tt_move,
            ply,
            previous,
            before,
            self.order_flags,
        );
        base
    }

    /// Rewards the move `bits` that caused a beta cutoff (searched at `depth`) and penalises the
    /// moves tried before it: `quiets` in the quiet history and killers when it is quiet,
    /// `noisies` in the capture history (when in use).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn update_histories(
        &mut self,
        stm: usize,
        ply: usize,
        previous: u32,
        bits: u16,
        quiet: bool,
        quiets: &[u16],
        noisies: &[u16],
        depth: i32,
    ) {
        let bonus = history_bonus(depth, self.s.history_bonus_slope);
        if quiet {
            self.state
                .update_quiet(stm, ply, previous, self.before(ply), bits, quiets, bonus);
        }
        if self.order_flags.capture_history {
            let best = if quiet { None } else { Some(bits) };
            self.state.update_noisy(stm, best, noisies, bonus);
        }
    }

    /// A legal reply to the best move from the table (for `bestmove ... ponder`).
    pub fn ponder_from_tt(&self, pos: &mut G, best: G::Move) -> Option<G::Move> {
        pos.make_move(best);
        let reply = self
            .shared
            .tt
            .probe(pos.hash() ^ self.key_salt)
            .and_then(|e| e.mv)
            .and_then(|bits| {
                let mut list = G::MoveList::default();
                pos.generate_moves(&mut list);
                list.moves().iter().copied().find(|m| m.to_bits() == bits)
            });
        pos.undo_move(best);
        reply
    }
}

/// Milliseconds since `start`.
pub(crate) fn millis_since(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

/// Mate distance pruning: no score `ply` plies below the root can beat a mate found nearer the
/// root, so the window narrows to the mates still possible; `Err(alpha)` when nothing is left.
#[inline]
pub(super) fn mate_window(alpha: i32, beta: i32, ply: usize) -> Result<(i32, i32), i32> {
    let alpha = alpha.max(-MATE + ply as i32);
    let beta = beta.min(MATE - ply as i32 - 1);
    if alpha >= beta {
        Err(alpha)
    } else {
        Ok((alpha, beta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::TB_WIN;

    #[test]
    fn table_and_mate_scores_are_stored_relative_to_the_node() {
        // A table win found 5 plies below the root, 3 plies beyond the storing node at ply 2,
        // read again at ply 7: 3 plies beyond that node, 10 from the root.
        let stored = score_to_tt(TB_WIN - 5, 2);
        assert_eq!(score_from_tt(stored, 7), TB_WIN - 10);
        assert_eq!(
            score_from_tt(score_to_tt(-(TB_WIN - 5), 2), 7),
            -(TB_WIN - 10)
        );
        // Mates as before.
        assert_eq!(score_from_tt(score_to_tt(MATE - 5, 2), 7), MATE - 10);
        // A table win far away stays a table win, never a mate nor an evaluation.
        let far = score_from_tt(score_to_tt(TB_BOUND + 1, 0), MAX_PLY);
        assert!((TB_BOUND..MATE_BOUND).contains(&far), "{far}");
        let far = score_from_tt(score_to_tt(-(TB_BOUND + 1), 0), MAX_PLY);
        assert!((-MATE_BOUND + 1..=-TB_BOUND).contains(&far), "{far}");
        // Evaluations are not moved, and the largest is below every table score.
        for s in [0, 123, -4567, EVAL_MAX, -EVAL_MAX] {
            assert_eq!(score_from_tt(score_to_tt(s, 9), 40), s);
        }
        const { assert!(EVAL_MAX < TB_BOUND) };
    }
}
