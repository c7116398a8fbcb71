//! The alpha-beta core: principal variation search with a transposition table, quiescence
//! search, check extension, mate-distance scores, and conservative pruning (reverse futility,
//! null move, futility, late-move pruning, late-move reductions).
//!
//! Scores are from the point of view of the team to move (see [`super::multiplayer`]): with two
//! players this is plain negamax.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::game::{Game, GameMove, MoveBuffer};

use super::limits::SearchControl;
use super::multiplayer::{self, BrsMove, OpponentModel, Teams};
use super::ordering::{pick, score_moves, OrderFlags, ThreadState, COUNTER, NO_MOVE, NULL_MOVE};
use super::params::{self, Settings};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::{SearchEvent, INFINITY, MATE, MATE_BOUND, MAX_PLY};

/// Static evaluations are clamped into +-EVAL_MAX so they never look like mate scores.
const EVAL_MAX: i32 = MATE_BOUND - 1;
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
}

impl Shared {
    /// Whether time limits apply now (not while pondering or in `go infinite`).
    pub fn time_applies(&self) -> bool {
        !self.infinite && !self.control.is_pondering()
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

/// Converts a score to the form stored in the table (mate distance counted from the node).
#[inline]
pub(crate) fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// The inverse of [`score_to_tt`].
#[inline]
pub(crate) fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The score a table entry proves for a non-PV node searched to `depth` with the window
/// `alpha..beta`, if its depth and bound suffice.
#[inline]
fn tt_cutoff(
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
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// One search thread.
pub(crate) struct Worker<'a, G: Game> {
    pub id: usize,
    pub shared: &'a Shared,
    pub state: &'a mut ThreadState,
    pub teams: Teams,
    key_salt: u64,
    pub nodes: u64,
    others_nodes: u64,
    node_limit: u64,
    pub stopped: bool,
    pub seldepth: usize,
    pub root_depth: i32,
    pub completed_depth: u32,
    pv: Vec<G::Move>,
    pv_len: Vec<usize>,
    played: Vec<u32>,
    scores: Vec<i32>,
    pub root_moves: Vec<RootMove<G::Move>>,
    lmr: Vec<[u8; 64]>,
    quiescence_plies: u32,
    /// The game's search parameters and switches, read once per search.
    pub s: Settings,
    /// Whether quiescence uses the table (the `Use QS TT` switch, two players, and a quiescence
    /// that ends by itself).
    qs_tt: bool,
    /// The ordering refinements in use (from the switches and the players).
    order_flags: OrderFlags,
    /// The static evaluation of each ply of the current line (-INFINITY: in check).
    evals: Vec<i32>,
    /// The move a singular-extension search of each ply leaves out.
    excluded: Vec<Option<u16>>,
    /// Where the main thread sends its reports (`None` in helper threads).
    pub events: Option<Sender<SearchEvent<G::Move>>>,
}

const PV_WIDTH: usize = MAX_PLY + 1;

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        id: usize,
        shared: &'a Shared,
        state: &'a mut ThreadState,
        root: &G,
        root_moves: Vec<G::Move>,
        policy_players: Option<u8>,
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
            qs_tt: s.use_qs_tt
                && root.quiescence_plies() == u32::MAX
                && !teams.paranoid
                && !teams.brs,
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
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes + self.others_nodes >= self.node_limit {
            self.stopped = true;
            self.shared.abort.store(true, Relaxed);
        }
        if self.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
    }

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
    fn store(
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

    /// Static evaluation for the team to move, clamped below mate scores.
    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
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
        e.clamp(-EVAL_MAX, EVAL_MAX)
    }

    #[inline]
    fn previous(&self, ply: usize) -> u32 {
        if ply == 0 {
            NO_MOVE
        } else {
            self.played[ply - 1]
        }
    }

    /// Searches the child reached by the move just made; the window and the result are from
    /// the parent's point of view.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        pos: &mut G,
        same_team: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if same_team {
            self.negamax(pos, depth, alpha, beta, ply + 1, pv_node)
        } else {
            -self.negamax(pos, depth, -beta, -alpha, ply + 1, pv_node)
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let row = ply * PV_WIDTH;
        let child_row = (ply + 1) * PV_WIDTH;
        self.pv[row + ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[row + j] = self.pv[child_row + j];
        }
        self.pv_len[ply] = child_len;
    }

    /// Searches the root moves from index `first` (MultiPV lines before it are done) and sorts
    /// them by score. Returns the best score.
    pub fn root_search(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> i32 {
        self.pv_len[0] = 0;
        self.tick();
        let start_alpha = alpha;
        let stm = pos.side_to_move();
        let mut best = -INFINITY;
        for i in first..self.root_moves.len() {
            if self.stopped {
                break;
            }
            let m = self.root_moves[i].mv;
            if let Some(events) = &self.events {
                if self.shared.time.elapsed().as_millis() >= 1000 {
                    // A closed channel only means nobody listens any more.
                    let _ = events.send(SearchEvent::CurrMove {
                        depth: depth as u32,
                        mv: m,
                        number: i + 1,
                    });
                }
            }
            let noisy = pos.is_noisy(m);
            let nodes_before = self.nodes;
            pos.make_move(m);
            self.played[0] = u32::from(m.to_bits());
            let same = self.teams.same(stm, pos.side_to_move());
            let gives_check = pos.in_check();
            let new_depth = depth - 1 + i32::from(gives_check && self.s.use_check_extension);
            let score = if i == first {
                self.child(pos, same, new_depth, alpha, beta, 0, true)
            } else {
                let r = i32::from(
                    self.s.use_lmr && depth >= 3 && i >= first + 3 && !noisy && !gives_check,
                );
                let mut s = self.child(pos, same, new_depth - r, alpha, alpha + 1, 0, false);
                if s > alpha && r > 0 {
                    s = self.child(pos, same, new_depth, alpha, alpha + 1, 0, false);
                }
                if s > alpha && s < beta {
                    s = self.child(pos, same, new_depth, alpha, beta, 0, true);
                }
                s
            };
            pos.undo_move(m);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if i == first || score > alpha {
                self.update_pv(0, m);
                let pv = self.pv[1..self.pv_len[0]].to_vec();
                let seldepth = self.seldepth;
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.improved = score > start_alpha;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend(pv);
                if score > alpha {
                    alpha = score;
                }
            } else {
                self.root_moves[i].score = -INFINITY;
                self.root_moves[i].improved = false;
            }
            if score >= beta {
                break;
            }
        }
        self.root_moves[first..].sort_by_key(|r| std::cmp::Reverse(r.score));
        if !self.stopped {
            let best_move = self.root_moves[first].mv;
            let bound = bound_of(best, start_alpha, beta);
            if first == 0 {
                self.shared.tt.store(
                    pos.hash() ^ self.key_salt,
                    TtEntry {
                        mv: (bound != Bound::Upper).then(|| best_move.to_bits()),
                        score: score_to_tt(best, 0),
                        eval: self.evaluate(pos) as i16,
                        depth: depth.clamp(0, 127) as u8,
                        bound,
                    },
                );
            }
        }
        best
    }

    /// Principal variation search of a node `ply` plies below the root.
    fn negamax(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        if self.stopped {
            return 0;
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stm = pos.side_to_move();
        if let Some(outcome) = pos.search_outcome(ply, self.s.use_twofold) {
            return self.teams.outcome_score(outcome, stm, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }

        // Mate distance pruning: no score here can beat a mate found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.teams.brs && stm != self.teams.root {
            return self.brs_opponents(pos, depth, alpha, beta, ply, pv_node, None);
        }

        let s = self.s;
        let two_player = !self.teams.paranoid;
        let in_check = pos.in_check();
        let key = pos.hash() ^ self.key_salt;
        // A singular-extension search of this node leaves the table move out (and neither
        // trusts nor writes the table here).
        let excluded = self.excluded[ply];
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if excluded.is_none() {
            if let Some(sc) = entry.and_then(|e| tt_cutoff(&e, depth, alpha, beta, ply, pv_node)) {
                return sc;
            }
        }
        let structure = if two_player && s.use_correction {
            pos.structure_key()
        } else {
            None
        };
        // The static evaluation (corrected by what searches here learnt), and `eval`, the best
        // estimate of the node's value (the table's score where its bound allows).
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(e) = entry {
            i32::from(e.eval)
        } else {
            self.evaluate(pos)
        };
        let static_eval = match structure {
            Some(k) if !in_check => {
                (raw_eval + self.state.correction(stm, k)).clamp(-EVAL_MAX, EVAL_MAX)
            }
            _ => raw_eval,
        };
        let mut eval = static_eval;
        if let Some(e) = entry.filter(|_| s.use_tt_eval && !in_check) {
            let ts = score_from_tt(e.score, ply);
            if ts.abs() < MATE_BOUND
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => ts > eval,
                    Bound::Upper => ts < eval,
                }
            {
                eval = ts;
            }
        }
        self.evals[ply] = static_eval;
        // Improving: the static evaluation rose since this side's previous move.
        let improving = two_player
            && s.use_improving
            && !in_check
            && if ply >= 2 && self.evals[ply - 2] > -INFINITY {
                static_eval > self.evals[ply - 2]
            } else if ply >= 4 && self.evals[ply - 4] > -INFINITY {
                static_eval > self.evals[ply - 4]
            } else {
                true
            };
        let improving_i = i32::from(improving);

        if two_player && !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta near the leaves.
            if s.use_rfp
                && depth <= s.rfp_depth
                && eval - s.rfp_margin * (depth - improving_i) >= beta
            {
                return eval;
            }
            // Razoring: far below alpha, a quiescence search decides.
            if s.use_razoring
                && depth <= s.razoring_depth
                && eval + s.razoring_margin * depth < alpha
            {
                let v = self.qsearch(pos, alpha, alpha + 1, ply, 0);
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Null move: give the opponent a free move; still above beta means a cutoff.
            if s.use_null_move
                && depth >= s.nmp_min_depth
                && eval >= beta
                && static_eval >= beta
                && self.previous(ply) != NULL_MOVE
                && pos.can_null_move()
            {
                let mut r = s.nmp_base + depth / s.nmp_divisor.max(1);
                if s.nmp_eval_divisor > 0 {
                    r += ((eval - beta) / s.nmp_eval_divisor).min(3);
                }
                pos.make_null_move();
                self.played[ply] = NULL_MOVE;
                let sc = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                pos.undo_null_move();
                if self.stopped {
                    return 0;
                }
                if sc >= beta {
                    return if sc >= MATE_BOUND { beta } else { sc };
                }
            }
            // ProbCut: a noisy move that beats beta by a margin in a search four plies
            // shallower (after a quiescence search agrees) very probably beats beta here.
            if s.use_probcut && depth >= s.probcut_depth {
                let pc_beta = beta + s.probcut_margin;
                // Not when a deep enough table entry says the node stays below that.
                let below = entry.is_some_and(|e| {
                    i32::from(e.depth) >= depth - 3
                        && e.bound != Bound::Lower
                        && score_from_tt(e.score, ply) < pc_beta
                });
                if !below {
                    if let Some(v) = self.probcut(pos, depth, pc_beta, static_eval, tt_move, ply) {
                        if self.stopped {
                            return 0;
                        }
                        return v;
                    }
                    if self.stopped {
                        return 0;
                    }
                }
            }
        }
        // Internal iterative reduction: without a table move this node is probably new or
        // badly ordered; search it shallower.
        if two_player
            && s.use_iir
            && depth >= s.iir_depth
            && tt_move.is_none()
            && excluded.is_none()
        {
            depth -= 1;
        }

        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        if list.moves().is_empty() {
            return self.teams.outcome_score(pos.no_moves_outcome(), stm, ply);
        }
        let base = self.order_moves(pos, list.moves(), tt_move, ply);
        let previous = self.previous(ply);
        let count = list.moves().len();

        let futile = two_player
            && s.use_futility
            && !pv_node
            && !in_check
            && depth <= s.futility_depth
            && alpha.abs() < MATE_BOUND
            && eval + s.futility_base + s.futility_margin * depth <= alpha;
        let lmp_limit = if two_player && s.use_lmp && !pv_node && !in_check && depth <= s.lmp_depth
        {
            let full = (s.lmp_base + depth * depth) as usize;
            if s.use_improving && !improving {
                full / 2
            } else {
                full
            }
        } else {
            usize::MAX
        };
        let see_pruning = two_player && s.use_see_pruning && depth <= s.see_depth;
        // Singular extensions: the table move, when the table says it is good enough here.
        let singular = entry.filter(|e| {
            two_player
                && s.use_singular
                && excluded.is_none()
                && depth >= s.singular_depth
                && i32::from(e.depth) >= depth - 3
                && e.bound != Bound::Upper
                && e.mv.is_some()
                && score_from_tt(e.score, ply).abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
        });
        let history_pruning = two_player
            && s.use_history_pruning
            && !pv_node
            && !in_check
            && depth <= s.history_pruning_depth;

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<u16> = None;
        let mut best_noisy = false;
        let mut searched = 0usize;
        let mut quiets_seen = 0usize;
        let mut quiets: ArrayVec<u16, 64> = ArrayVec::new();
        let mut noisies: ArrayVec<u16, 32> = ArrayVec::new();
        for i in 0..count {
            pick(list.moves_mut(), &mut self.scores[base..base + count], i);
            let m = list.moves()[i];
            let order_score = self.scores[base + i];
            let noisy = pos.is_noisy(m);
            let bits = m.to_bits();
            if Some(bits) == excluded {
                continue;
            }
            let quiet = !noisy;
            if quiet {
                quiets_seen += 1;
            }
            // Singular extension of the table move (before it is made): search the others,
            // shallower, against a bound below the table score.
            let mut singular_extension = 0;
            if let Some(e) = singular.filter(|e| e.mv == Some(bits)) {
                let tt_score = score_from_tt(e.score, ply);
                let singular_beta = tt_score - s.singular_margin * depth / 4;
                self.excluded[ply] = Some(bits);
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.excluded[ply] = None;
                if self.stopped {
                    self.scores.truncate(base);
                    return 0;
                }
                if v < singular_beta {
                    singular_extension = 1;
                } else if singular_beta >= beta {
                    // Multi-cut: more than one move beats beta.
                    self.scores.truncate(base);
                    return singular_beta;
                } else if tt_score >= beta {
                    singular_extension = -1;
                }
            }
            let prunable = searched > 0 && best > -MATE_BOUND;
            if prunable && quiet {
                if quiets_seen > lmp_limit {
                    continue;
                }
                if history_pruning
                    && order_score < COUNTER
                    && order_score < -s.history_pruning_margin * depth
                {
                    continue;
                }
            }
            if prunable && see_pruning {
                let threshold = if quiet {
                    -s.see_quiet_margin * depth
                } else {
                    -s.see_noisy_margin * depth * depth
                };
                if !pos.see_ge(m, threshold) {
                    continue;
                }
            }
            pos.make_move(m);
            let gives_check = pos.in_check();
            if prunable && quiet && futile && !gives_check {
                pos.undo_move(m);
                continue;
            }
            self.played[ply] = u32::from(bits);
            let same = self.teams.same(stm, pos.side_to_move());
            let check_extension = i32::from(
                gives_check && self.s.use_check_extension && (ply as i32) < 2 * self.root_depth,
            );
            let extension = if singular_extension != 0 {
                singular_extension
            } else {
                check_extension
            };
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                self.child(pos, same, new_depth, alpha, beta, ply, pv_node)
            } else {
                let mut r = 0;
                if self.s.use_lmr
                    && depth >= 3
                    && searched >= 2 + usize::from(pv_node)
                    && quiet
                    && !in_check
                {
                    r = i32::from(self.lmr[depth.min(63) as usize][searched.min(63)]);
                    r -= i32::from(pv_node);
                    r -= i32::from(order_score >= COUNTER);
                    r -= i32::from(gives_check);
                    if two_player && s.use_improving {
                        r += i32::from(!improving);
                    }
                    if s.lmr_history_divisor > 0 && order_score < COUNTER {
                        r -= order_score / s.lmr_history_divisor;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut sc = self.child(pos, same, new_depth - r, alpha, alpha + 1, ply, false);
                if sc > alpha && r > 0 {
                    sc = self.child(pos, same, new_depth, alpha, alpha + 1, ply, false);
                }
                if pv_node && sc > alpha && sc < beta {
                    sc = self.child(pos, same, new_depth, alpha, beta, ply, true);
                }
                sc
            };
            pos.undo_move(m);
            if self.stopped {
                self.scores.truncate(base);
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(bits);
                    best_noisy = noisy;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.state
                                .update_quiet(stm, ply, previous, bits, &quiets, depth);
                        }
                        if self.order_flags.capture_history {
                            let best = if quiet { None } else { Some(bits) };
                            self.state.update_noisy(stm, best, &noisies, depth);
                        }
                        break;
                    }
                }
            }
            if quiet && !quiets.is_full() {
                quiets.push(bits);
            }
            if noisy && !noisies.is_full() {
                noisies.push(bits);
            }
        }
        self.scores.truncate(base);
        if excluded.is_some() {
            // Only the table move was left out: the others failed to reach anything.
            return if searched == 0 { alpha } else { best };
        }

        let bound = bound_of(best, original_alpha, beta);
        if let Some(k) = structure {
            // Learn how far the static evaluation was off, where the search result says so.
            let settled = match bound {
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                Bound::Exact => true,
            };
            if !in_check && !best_noisy && best.abs() < MATE_BOUND && settled {
                self.state.update_correction(stm, k, best - raw_eval, depth);
            }
        }
        self.store(key, ply, best, best_move, raw_eval, depth, bound);
        best
    }

    /// Scores `moves` for ordering with this search's flags, appended to `self.scores`; returns
    /// where their scores start.
    fn order_moves(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        tt_move: Option<u16>,
        ply: usize,
    ) -> usize {
        let base = self.scores.len();
        let previous = self.previous(ply);
        score_moves(
            pos,
            moves,
            &mut self.scores,
            self.state,
            tt_move,
            ply,
            previous,
            self.order_flags,
        );
        base
    }

    /// ProbCut's move loop (see [`Worker::negamax`]): the score of the first noisy move whose
    /// quiescence and then reduced search reach `pc_beta`, stored in the table as a lower bound.
    fn probcut(
        &mut self,
        pos: &mut G,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        tt_move: Option<u16>,
        ply: usize,
    ) -> Option<i32> {
        let stm = pos.side_to_move();
        let mut list = G::MoveList::default();
        pos.generate_noisy(&mut list);
        let base = self.order_moves(pos, list.moves(), tt_move, ply);
        let count = list.moves().len();
        let mut found = None;
        for i in 0..count {
            pick(list.moves_mut(), &mut self.scores[base..base + count], i);
            let m = list.moves()[i];
            // Only moves whose exchange alone can make up the distance to pc_beta.
            if !pos.see_ge(m, pc_beta - static_eval) {
                continue;
            }
            pos.make_move(m);
            if self.teams.same(stm, pos.side_to_move()) {
                pos.undo_move(m);
                continue;
            }
            self.played[ply] = u32::from(m.to_bits());
            let mut v = -self.qsearch(pos, -pc_beta, -pc_beta + 1, ply + 1, 0);
            if v >= pc_beta && !self.stopped {
                v = -self.negamax(pos, depth - 4, -pc_beta, -pc_beta + 1, ply + 1, false);
            }
            pos.undo_move(m);
            if self.stopped {
                break;
            }
            if v >= pc_beta {
                let key = pos.hash() ^ self.key_salt;
                let raw = self.evaluate(pos);
                self.store(key, ply, v, Some(m.to_bits()), raw, depth - 3, Bound::Lower);
                found = Some(if v >= MATE_BOUND { pc_beta } else { v });
                break;
            }
        }
        self.scores.truncate(base);
        found
    }

    /// Quiescence search: noisy moves only (every move when in check), standing pat on the
    /// static evaluation otherwise. Games whose quiescence ends by itself (captures) use the
    /// transposition table here too.
    fn qsearch(&mut self, pos: &mut G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stm = pos.side_to_move();
        if let Some(outcome) = pos.search_outcome(ply, self.s.use_twofold) {
            return self.teams.outcome_score(outcome, stm, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        if self.teams.brs && stm != self.teams.root {
            return self.brs_opponents(pos, 0, alpha, beta, ply, false, Some(qply));
        }
        let use_tt = self.qs_tt;
        let key = pos.hash() ^ self.key_salt;
        let entry = if use_tt {
            self.shared.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = entry {
            let sc = score_from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => sc >= beta,
                Bound::Upper => sc <= alpha,
            };
            if cut {
                return sc;
            }
        }
        let original_alpha = alpha;
        let in_check = pos.in_check();
        let mut list = G::MoveList::default();
        let mut best;
        let mut raw_eval = -INFINITY;
        if in_check {
            pos.generate_moves(&mut list);
            if list.moves().is_empty() {
                return self.teams.outcome_score(pos.no_moves_outcome(), stm, ply);
            }
            best = -INFINITY;
        } else {
            raw_eval = match entry {
                Some(e) => i32::from(e.eval),
                None => self.evaluate(pos),
            };
            let stand_pat = raw_eval;
            if stand_pat >= beta {
                return stand_pat;
            }
            if qply >= self.quiescence_plies {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            pos.generate_noisy(&mut list);
        }
        let base = self.scores.len();
        let previous = self.previous(ply);
        let flags = OrderFlags {
            bad_noisy_last: false,
            ..self.order_flags
        };
        score_moves(
            pos,
            list.moves(),
            &mut self.scores,
            self.state,
            entry.and_then(|e| e.mv),
            ply,
            previous,
            flags,
        );
        let count = list.moves().len();
        let mut best_move = None;
        for i in 0..count {
            pick(list.moves_mut(), &mut self.scores[base..base + count], i);
            let m = list.moves()[i];
            if !in_check && self.s.use_qs_see && best > -MATE_BOUND && !pos.see_ge(m, 0) {
                continue;
            }
            pos.make_move(m);
            self.played[ply] = u32::from(m.to_bits());
            let same = self.teams.same(stm, pos.side_to_move());
            let score = if same {
                self.qsearch(pos, alpha, beta, ply + 1, qply + 1)
            } else {
                -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1)
            };
            pos.undo_move(m);
            if self.stopped {
                self.scores.truncate(base);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m.to_bits());
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.scores.truncate(base);
        if use_tt {
            let eval = if in_check { 0 } else { raw_eval };
            let bound = bound_of(best, original_alpha, beta);
            self.store(key, ply, best, best_move, eval, 0, bound);
        }
        best
    }

    /// The opponents' layer of best-reply search (see [`multiplayer`]): every move of every
    /// opponent is tried, each followed by passes up to the root player, and the best one for
    /// the coalition counts; in the hybrid the modelled opponents ([`Teams::modelled`]) play
    /// their policy move instead of passing and offer no moves of their own. `qply` is `Some`
    /// in quiescence (stand pat, noisy moves only).
    /// The principal variation stops here (its moves would not follow the turn order).
    #[allow(clippy::too_many_arguments)]
    fn brs_opponents(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        qply: Option<u32>,
    ) -> i32 {
        if self.teams.model != OpponentModel::BestReply {
            return self.modelled_opponents(pos, depth, alpha, beta, ply, pv_node, qply);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let key = pos.hash() ^ self.key_salt;
        let mut tt_move = None;
        if let Some(q) = qply {
            // Standing pat: the modelled opponents (if any) play their policy move, the others pass.
            let stand_pat = if self.teams.modelled == 0 {
                self.evaluate(pos)
            } else {
                self.modelled_opponents(pos, 0, alpha, beta, ply, false, qply)
            };
            if stand_pat >= beta || q >= self.quiescence_plies {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        } else if let Some(e) = self.shared.tt.probe(key) {
            tt_move = e.mv;
            if let Some(s) = tt_cutoff(&e, depth, alpha, beta, ply, pv_node) {
                return s;
            }
        }
        let mut moves: Vec<BrsMove<G::Move>> = Vec::new();
        multiplayer::brs_moves(pos, &self.teams, qply.is_some(), tt_move, &mut moves);
        if moves.is_empty() {
            return if qply.is_some() {
                best
            } else if self.teams.modelled != 0 {
                self.modelled_opponents(pos, depth, alpha, beta, ply, pv_node, qply)
            } else {
                self.evaluate(pos)
            };
        }
        let mut best_move = None;
        for (i, &m) in moves.iter().enumerate() {
            let made = multiplayer::brs_make(pos, Some(m), &self.teams);
            let bits = m.mv.to_bits();
            self.played[ply] = u32::from(bits);
            let score = if let Some(q) = qply {
                -self.qsearch(pos, -beta, -alpha, ply + 1, q + 1)
            } else if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                if pv_node && s > alpha && s < beta {
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            multiplayer::brs_undo(pos, made);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(bits);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if qply.is_none() {
            let bound = bound_of(best, original_alpha, beta);
            let eval = self.evaluate(pos);
            self.store(key, ply, best, best_move, eval, depth, bound);
        }
        best
    }

    /// The opponents' layer played by a model ([`OpponentModel::Pass`] or
    /// [`OpponentModel::Policy`]): each opponent in turn passes or plays its policy move, then
    /// the root player searches on (the layer costs one ply of depth, as the best reply does).
    /// In the hybrid's best-reply layer: the line where only the modelled opponents move.
    #[allow(clippy::too_many_arguments)]
    fn modelled_opponents(
        &mut self,
        pos: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        qply: Option<u32>,
    ) -> i32 {
        let layer = pos.side_to_move();
        let policy = self.teams.model == OpponentModel::Policy;
        let mut made: ArrayVec<Option<G::Move>, 8> = ArrayVec::new();
        let mut finished = None;
        while pos.side_to_move() != self.teams.root && !made.is_full() {
            if let Some(outcome) = pos.rule_outcome() {
                finished = Some(outcome);
                break;
            }
            let mv = if policy || self.teams.is_modelled(pos.side_to_move()) {
                pos.policy_move()
            } else {
                None
            };
            match mv {
                Some(m) => pos.make_move(m),
                None => pos.make_null_move(),
            }
            made.push(mv);
        }
        // In quiescence the modelled replies end the line: the static evaluation after them
        // (searching on made depth 1 alone cost some 17,000 nodes with six players, more than
        // a 100 ms move allows).
        let score = match finished {
            Some(outcome) => self.teams.outcome_score(outcome, layer, ply + 1),
            None => match qply {
                Some(_) => {
                    self.tick();
                    -self.evaluate(pos)
                }
                None => -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, pv_node),
            },
        };
        while let Some(mv) = made.pop() {
            match mv {
                Some(m) => pos.undo_move(m),
                None => pos.undo_null_move(),
            }
        }
        score
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
