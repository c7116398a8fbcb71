//! The two-player search (also two teams): principal variation search with the transposition
//! table, check and singular extensions, mate-distance pruning, the pruning of each node before
//! its moves (reverse futility, razoring, null move, ProbCut, internal iterative reduction) and
//! of its moves (late-move, history, static-exchange and futility pruning, late-move
//! reductions), a correction history of the static evaluation, and the quiescence search. Every
//! technique has its switch and margins in [`super::params`]; docs/search.md measures them.
//!
//! The search with more than two players is [`super::multiplayer_search`]; both share the
//! [`Worker`]'s bookkeeping ([`super::worker`]).

use arrayvec::ArrayVec;

use crate::game::{GameMove, MoveBuffer, SearchHints, Searchable};

use super::ordering::{pick, score_moves, CorrectionKeys, OrderFlags, COUNTER, NULL_MOVE};
use super::tt::{Bound, TtEntry};
use super::worker::{bound_of, mate_window, score_from_tt, tt_cutoff, Worker, EVAL_MAX};
use super::{INFINITY, MATE_BOUND, MAX_PLY, TB_WIN};

/// `eval` replaced by the table entry's score (`ply` plies below the root) where the entry's
/// bound says the true value lies beyond `eval` (or is exact); mate scores are not used.
#[inline]
fn refined_by_table(eval: i32, e: &TtEntry, ply: usize) -> i32 {
    let ts = score_from_tt(e.score, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => ts > eval,
        Bound::Upper => ts < eval,
    };
    if ts.abs() < MATE_BOUND && beyond {
        ts
    } else {
        eval
    }
}

/// A node's evaluations, known before its moves are searched.
#[derive(Clone, Copy, Debug)]
struct NodeEval {
    /// The evaluation the table keeps (its own, or the static evaluation; -INFINITY in check).
    raw: i32,
    /// `raw` corrected by what searches of positions of the same structure learnt.
    static_eval: i32,
    /// The best estimate of the node's value: the table's score where its bound allows, else
    /// `static_eval`.
    eval: i32,
    /// The static evaluation rose since this side's previous move (with `Use Improving`).
    improving: bool,
}

/// Which moves of a node are pruned before they are searched, decided once per node.
#[derive(Clone, Copy, Debug)]
struct MovePruning {
    /// Futility pruning: quiet moves that do not give check are not searched.
    futile: bool,
    /// Late move pruning: the quiet moves after this many are not searched.
    lmp_limit: usize,
    /// Late move pruning waits until the move is made: a late quiet move giving check is
    /// searched.
    use_late_checks: bool,
    /// History pruning: quiet moves whose ordering score (history) is below this are not
    /// searched.
    history_below: Option<i32>,
    /// Static-exchange pruning: the exchange a quiet move, and a noisy move, must not lose more
    /// than.
    see_thresholds: Option<(i32, i32)>,
}

impl MovePruning {
    /// Whether the move `m` (quiet or not, the `quiets_seen`-th quiet move, ordered with
    /// `order_score`) is pruned before it is made. Futility needs the move made (a move giving
    /// check is searched).
    #[inline]
    fn skips<G: SearchHints>(
        &self,
        pos: &G,
        m: G::Move,
        quiet: bool,
        quiets_seen: usize,
        order_score: i32,
    ) -> bool {
        if quiet {
            if quiets_seen > self.lmp_limit && !self.use_late_checks {
                return true;
            }
            // Futility and late checks: a move the game can tell gives no check is pruned unmade.
            if (self.futile || self.late(quiets_seen)) && pos.gives_check(m) == Some(false) {
                return true;
            }
            if let Some(below) = self.history_below {
                if order_score < COUNTER && order_score < below {
                    return true;
                }
            }
        }
        if let Some((quiet_threshold, noisy_threshold)) = self.see_thresholds {
            let threshold = if quiet {
                quiet_threshold
            } else {
                noisy_threshold
            };
            if !pos.see_ge(m, threshold) {
                return true;
            }
        }
        false
    }

    /// Whether the `quiets_seen`-th quiet move, made and not giving check, is pruned as a late
    /// move (only where late move pruning keeps checks; otherwise [`Self::skips`] pruned it).
    #[inline]
    fn late(&self, quiets_seen: usize) -> bool {
        self.use_late_checks && quiets_seen > self.lmp_limit
    }
}

impl<G: Searchable> Worker<'_, G> {
    /// Principal variation search of a node `ply` plies below the root (two players);
    /// `cut_node`: a zero-window node expected to fail high (with `Use Cut Node LMR`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        let stm = pos.side_to_move();

        (alpha, beta) = match mate_window(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };

        let s = self.s;
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
        if self.shared.tb_probes && excluded.is_none() {
            if let Some(v) = self.table_cutoff(pos, key, entry, depth, alpha, beta, ply) {
                return v;
            }
        }
        let structure = self.correction_keys(pos);
        let ev = self.node_eval(pos, entry, structure, in_check, ply);

        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND {
            if let Some(v) = self.prune_node(pos, &ev, entry, depth, alpha, beta, ply, cut_node) {
                return v;
            }
        }
        // Internal iterative reduction: without a table move this node is probably new or
        // badly ordered; search it shallower.
        if s.use_iir && depth >= s.iir_depth && tt_move.is_none() && excluded.is_none() {
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

        let pruning = self.move_pruning(&ev, depth, alpha, pv_node, in_check);
        // Singular extensions: the table move, when the table says it is good enough here.
        let singular = entry.filter(|e| {
            s.use_singular
                && excluded.is_none()
                && depth >= s.singular_depth
                && i32::from(e.depth) >= depth - 3
                && e.bound != Bound::Upper
                && e.mv.is_some()
                && score_from_tt(e.score, ply).abs() < MATE_BOUND
                && (ply as i32) < 2 * self.root_depth
        });

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<u16> = None;
        let mut best_noisy = false;
        let mut searched = 0usize;
        let mut quiets_seen = 0usize;
        let mut tt_noisy = false;
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
            if Some(bits) == tt_move {
                tt_noisy = noisy;
            }
            if quiet {
                quiets_seen += 1;
            }
            let mut singular_extension = 0;
            if let Some(e) = singular.filter(|e| e.mv == Some(bits)) {
                match self.singular_extension(pos, &e, bits, depth, beta, ply, pv_node, cut_node) {
                    Ok(x) => singular_extension = x,
                    Err(v) => {
                        self.scores.truncate(base);
                        return v;
                    }
                }
            }
            let prunable = searched > 0 && best > -MATE_BOUND;
            if prunable && pruning.skips(pos, m, quiet, quiets_seen, order_score) {
                continue;
            }
            let predicted = pos.key_after(m);
            if let Some(key) = predicted {
                self.shared.tt.prefetch(key ^ self.key_salt);
            }
            pos.make_move(m);
            if predicted != Some(pos.hash()) {
                self.shared.tt.prefetch(pos.hash() ^ self.key_salt);
            }
            let gives_check = pos.in_check();
            if prunable && quiet && !gives_check && (pruning.futile || pruning.late(quiets_seen)) {
                pos.undo_move(m);
                continue;
            }
            self.played[ply] = u32::from(bits);
            let same = self.teams.same(stm, pos.side_to_move());
            let check_extension = i32::from(
                gives_check && s.use_check_extension && (ply as i32) < 2 * self.root_depth,
            );
            let extension = if singular_extension != 0 {
                singular_extension
            } else {
                check_extension
            };
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                self.pvs_child(
                    pos,
                    same,
                    new_depth,
                    alpha,
                    beta,
                    ply,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if s.use_lmr
                    && depth >= 3
                    && searched >= 2 + usize::from(pv_node)
                    && (quiet || s.use_noisy_lmr)
                    && !in_check
                {
                    r = if quiet {
                        self.reduction(depth, searched, pv_node, order_score, gives_check)
                            + i32::from(s.use_tt_noisy_lmr && tt_noisy)
                    } else {
                        self.noisy_reduction(depth, searched, pv_node, gives_check)
                    };
                    r += i32::from(s.use_improving && !ev.improving);
                    if s.use_cut_node_lmr && cut_node {
                        r += s.cut_node_reduction;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut sc =
                    self.pvs_child(pos, same, new_depth - r, alpha, alpha + 1, ply, false, true);
                let mut full_depth = new_depth;
                if sc > alpha && r > 0 {
                    if s.use_lmr_deeper {
                        // How far the reduced search beat the best score so far decides the
                        // depth of the search again.
                        if sc > best + 40 + 2 * new_depth {
                            full_depth += 1;
                        } else if sc < best + new_depth {
                            full_depth -= 1;
                        }
                    }
                    if full_depth > new_depth - r {
                        sc = self.pvs_child(
                            pos,
                            same,
                            full_depth,
                            alpha,
                            alpha + 1,
                            ply,
                            false,
                            !cut_node,
                        );
                    }
                }
                if pv_node && sc > alpha && sc < beta {
                    sc = self.pvs_child(pos, same, full_depth, alpha, beta, ply, true, false);
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
                        self.update_histories(
                            stm, ply, previous, bits, quiet, &quiets, &noisies, depth,
                        );
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
                Bound::Lower => best > ev.static_eval,
                Bound::Upper => best < ev.static_eval,
                Bound::Exact => true,
            };
            if !in_check && !best_noisy && best.abs() < MATE_BOUND && settled {
                self.state
                    .update_correction(stm, &k, best - ev.raw, best - ev.static_eval, depth);
            }
        }
        self.store(key, ply, best, best_move, ev.raw, depth, bound);
        best
    }

    /// Endgame tables at a node: the table's value when it ends the node (a draw; a win at or
    /// above `beta`; a loss at or below `alpha`), as Stockfish uses its WDL probes. Wins and
    /// losses are [`TB_WIN`] less the ply, below every mate score; a result the fifty-move rule
    /// spoils is a draw shifted by one. A cutoff is stored in the transposition table, deeper
    /// than the node (as Stockfish stores it), with the node's static evaluation.
    #[allow(clippy::too_many_arguments)]
    fn table_cutoff(
        &mut self,
        pos: &mut G,
        key: u64,
        entry: Option<TtEntry>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let wdl = pos.probe_tables(depth)?;
        self.shared
            .tb_hits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let value = match wdl {
            2.. => TB_WIN - ply as i32,
            ..=-2 => -TB_WIN + ply as i32,
            w => w,
        };
        let cut = match wdl {
            2.. => value >= beta,
            ..=-2 => value <= alpha,
            _ => true,
        };
        if !cut {
            return None;
        }
        let bound = match wdl {
            2.. => Bound::Lower,
            ..=-2 => Bound::Upper,
            _ => Bound::Exact,
        };
        let eval = match entry {
            Some(e) => i32::from(e.eval),
            None => self.evaluate(pos),
        };
        let stored_depth = (depth + 6).min(MAX_PLY as i32 - 1);
        self.store(key, ply, value, None, eval, stored_depth, bound);
        Some(value)
    }

    /// Searches the child reached by the move just made (two players); the window and the
    /// result are from the parent's point of view.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pvs_child(
        &mut self,
        pos: &mut G,
        same_team: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        if same_team {
            self.negamax(pos, depth, alpha, beta, ply + 1, pv_node, cut_node)
        } else {
            -self.negamax(pos, depth, -beta, -alpha, ply + 1, pv_node, cut_node)
        }
    }

    /// The keys the static evaluation is corrected under (with `Use Correction History`, where
    /// the game has a structure key; the piece keys with `Use Piece Correction`).
    #[inline]
    fn correction_keys(&self, pos: &G) -> Option<CorrectionKeys> {
        if !self.s.use_correction {
            return None;
        }
        let structure = pos.structure_key()?;
        let pieces = if self.s.use_piece_correction {
            pos.piece_keys()
        } else {
            None
        };
        Some(CorrectionKeys { structure, pieces })
    }

    /// The evaluations of a node not yet searched (see [`NodeEval`]): from the table `entry`
    /// when there is one, corrected by the correction history of its `structure` key; records
    /// the static evaluation of `ply` for the "improving" test of later plies.
    fn node_eval(
        &mut self,
        pos: &G,
        entry: Option<TtEntry>,
        structure: Option<CorrectionKeys>,
        in_check: bool,
        ply: usize,
    ) -> NodeEval {
        let s = self.s;
        let raw = if in_check {
            -INFINITY
        } else if let Some(e) = entry {
            i32::from(e.eval)
        } else {
            self.evaluate(pos)
        };
        let static_eval = match structure {
            Some(k) if !in_check => {
                let stm = pos.side_to_move();
                (raw + self.state.correction(stm, &k)).clamp(-EVAL_MAX, EVAL_MAX)
            }
            _ => raw,
        };
        let eval = match entry.filter(|_| s.use_tt_eval && !in_check) {
            Some(e) => refined_by_table(static_eval, &e, ply),
            None => static_eval,
        };
        self.evals[ply] = static_eval;
        // Improving: the static evaluation rose since this side's previous move.
        let improving = s.use_improving
            && !in_check
            && if ply >= 2 && self.evals[ply - 2] > -INFINITY {
                static_eval > self.evals[ply - 2]
            } else if ply >= 4 && self.evals[ply - 4] > -INFINITY {
                static_eval > self.evals[ply - 4]
            } else {
                true
            };
        NodeEval {
            raw,
            static_eval,
            eval,
            improving,
        }
    }

    /// The pruning of a non-PV node not in check before its moves: reverse futility, razoring,
    /// null move and ProbCut. Returns the node's score when one of them ends the node (0 when
    /// the search was stopped in one of their searches).
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        pos: &mut G,
        ev: &NodeEval,
        entry: Option<TtEntry>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let s = self.s;
        let eval = ev.eval;
        // Reverse futility: far above beta near the leaves.
        if s.use_rfp
            && depth <= s.rfp_depth
            && eval - s.rfp_margin * (depth - i32::from(ev.improving)) >= beta
        {
            return Some(if s.use_rfp_blend {
                (eval + beta) / 2
            } else {
                eval
            });
        }
        // Razoring: far below alpha, a quiescence search decides.
        if s.use_razoring && depth <= s.razoring_depth && eval + s.razoring_margin * depth < alpha {
            let v = self.qsearch(pos, alpha, alpha + 1, ply, 0);
            if self.stopped {
                return Some(0);
            }
            if v <= alpha {
                return Some(v);
            }
        }
        // Null move: give the opponent a free move; still above beta means a cutoff.
        if s.use_null_move
            && depth >= s.nmp_min_depth
            && eval >= beta
            && ev.static_eval >= beta
            && self.previous(ply) != NULL_MOVE
            && pos.can_null_move()
        {
            let mut r = s.nmp_base + depth / s.nmp_divisor.max(1);
            if s.nmp_eval_divisor > 0 {
                r += ((eval - beta) / s.nmp_eval_divisor).min(3);
            }
            pos.make_null_move();
            self.played[ply] = NULL_MOVE;
            let sc = -self.negamax(
                pos,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                !cut_node,
            );
            pos.undo_null_move();
            if self.stopped {
                return Some(0);
            }
            if sc >= beta {
                return Some(if sc >= MATE_BOUND { beta } else { sc });
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
                let tt_move = entry.and_then(|e| e.mv);
                if let Some(v) =
                    self.probcut(pos, depth, pc_beta, ev.static_eval, tt_move, ply, cut_node)
                {
                    if self.stopped {
                        return Some(0);
                    }
                    return Some(v);
                }
                if self.stopped {
                    return Some(0);
                }
            }
        }
        None
    }

    /// The pruning of a node's moves (see [`MovePruning`]) at `depth` with the window's lower
    /// bound `alpha`.
    fn move_pruning(
        &self,
        ev: &NodeEval,
        depth: i32,
        alpha: i32,
        pv_node: bool,
        in_check: bool,
    ) -> MovePruning {
        let s = self.s;
        let futile = s.use_futility
            && !pv_node
            && !in_check
            && depth <= s.futility_depth
            && alpha.abs() < MATE_BOUND
            && ev.eval + s.futility_base + s.futility_margin * depth <= alpha;
        let lmp_limit = if s.use_lmp && !pv_node && !in_check && depth <= s.lmp_depth {
            let full = (s.lmp_base + depth * depth) as usize;
            if s.use_improving && !ev.improving {
                full / 2
            } else {
                full
            }
        } else {
            usize::MAX
        };
        let history_pruning =
            s.use_history_pruning && !pv_node && !in_check && depth <= s.history_pruning_depth;
        let see_pruning = s.use_see_pruning && depth <= s.see_depth;
        MovePruning {
            futile,
            lmp_limit,
            use_late_checks: s.use_late_checks,
            history_below: history_pruning.then(|| -s.history_pruning_margin * depth),
            see_thresholds: see_pruning.then(|| {
                (
                    -s.see_quiet_margin * depth,
                    -s.see_noisy_margin * depth * depth,
                )
            }),
        }
    }

    /// Singular extension of the table move `bits` (before it is made): the other moves are
    /// searched, shallower, against a bound below the table score `e`. `Ok` with the extension
    /// (2: far more than singular, with `Use Double Extension`, outside PV nodes; 1: singular;
    /// -1: another move reaches beta too; 0), or `Err` with the node's score (multi-cut: more
    /// than one move beats beta; 0: stopped).
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        pos: &mut G,
        e: &TtEntry,
        bits: u16,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Result<i32, i32> {
        let tt_score = score_from_tt(e.score, ply);
        let singular_beta = tt_score - self.s.singular_margin * depth / 4;
        self.excluded[ply] = Some(bits);
        let v = self.negamax(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
            cut_node,
        );
        self.excluded[ply] = None;
        if self.stopped {
            Err(0)
        } else if v < singular_beta {
            let double = self.s.use_double_extension
                && !pv_node
                && v < singular_beta - self.s.double_extension_margin;
            Ok(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Late move reduction of the `searched`-th move searched at `depth` (before the
    /// "improving" term and the clamp to the new depth): less in PV nodes, for killers and
    /// counter moves, for checks, and for moves with a good history.
    #[inline]
    fn reduction(
        &self,
        depth: i32,
        searched: usize,
        pv_node: bool,
        order_score: i32,
        gives_check: bool,
    ) -> i32 {
        let mut r = i32::from(self.lmr[depth.min(63) as usize][searched.min(63)]);
        r -= i32::from(pv_node);
        r -= i32::from(order_score >= COUNTER);
        r -= i32::from(gives_check);
        if self.s.lmr_history_divisor > 0 && order_score < COUNTER {
            r -= order_score / self.s.lmr_history_divisor;
        }
        r
    }

    /// Late move reduction of a noisy move (with `Use Noisy LMR`): one ply less than a quiet
    /// move's table value, less in PV nodes and for checks.
    #[inline]
    fn noisy_reduction(
        &self,
        depth: i32,
        searched: usize,
        pv_node: bool,
        gives_check: bool,
    ) -> i32 {
        i32::from(self.lmr[depth.min(63) as usize][searched.min(63)])
            - 1
            - i32::from(pv_node)
            - i32::from(gives_check)
    }

    /// ProbCut's move loop (see [`Worker::negamax`]): the score of the first noisy move whose
    /// quiescence and then reduced search reach `pc_beta`, stored in the table as a lower bound.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &mut G,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        tt_move: Option<u16>,
        ply: usize,
        cut_node: bool,
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
                v = -self.negamax(
                    pos,
                    depth - 4,
                    -pc_beta,
                    -pc_beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                );
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

    /// The standing evaluation of a quiescence node not in check: the static evaluation `raw`,
    /// or with `Use QS Refined Eval` that evaluation corrected by the correction history and
    /// then replaced by the table's score where its bound allows (as [`Self::node_eval`] does).
    fn qs_stand_pat(&self, pos: &G, raw: i32, entry: Option<TtEntry>, ply: usize) -> i32 {
        let s = self.s;
        if !s.use_qs_refined_eval {
            return raw;
        }
        let corrected = match self.correction_keys(pos) {
            Some(k) => {
                (raw + self.state.correction(pos.side_to_move(), &k)).clamp(-EVAL_MAX, EVAL_MAX)
            }
            None => raw,
        };
        match entry {
            Some(e) => refined_by_table(corrected, &e, ply),
            None => corrected,
        }
    }

    /// Quiescence search (two players): noisy moves only (every move when in check), standing
    /// pat on the static evaluation otherwise. Games whose quiescence ends by itself (captures) use the
    /// transposition table here too.
    fn qsearch(&mut self, pos: &mut G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv_len[ply] = ply;
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        let stm = pos.side_to_move();
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
        let mut standing = -INFINITY;
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
            let stand_pat = self.qs_stand_pat(pos, raw_eval, entry, ply);
            standing = stand_pat;
            if stand_pat >= beta {
                return stand_pat;
            }
            if qply >= self.quiescence_plies {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            pos.generate_noisy(&mut list);
            if qply == 0 && self.s.use_qs_checks {
                pos.push_quiet_checks(&mut list);
            }
        }
        let base = self.scores.len();
        let previous = self.previous(ply);
        let before = self.before(ply);
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
            before,
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
            // Futility: not even the exchange's gain lifts the standing evaluation to alpha.
            if !in_check && self.s.use_qs_futility && best > -MATE_BOUND {
                let needed = alpha - standing - self.s.qs_futility_margin + 1;
                if needed > 0 && !pos.see_ge(m, needed) && pos.gives_check(m) != Some(true) {
                    continue;
                }
            }
            let predicted = if use_tt { pos.key_after(m) } else { None };
            if let Some(key) = predicted {
                self.shared.tt.prefetch(key ^ self.key_salt);
            }
            pos.make_move(m);
            if use_tt && predicted != Some(pos.hash()) {
                self.shared.tt.prefetch(pos.hash() ^ self.key_salt);
            }
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
}
