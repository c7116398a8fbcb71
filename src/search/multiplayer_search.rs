//! The search with more than two players (see [`super::multiplayer`] for the algorithms and
//! their measurements): the root player against the coalition of the others, searched as
//! paranoid (every player moves in turn) or as best-reply search (one layer of opponents'
//! moves between the root player's, each opponent's move tried or played by the opponent
//! model), with its quiescence search. Of the two-player search's pruning only late-move
//! reductions apply (the margins assume alternating opponents); the table is used in the
//! search but not in quiescence.
//!
//! The two-player search is [`super::pvs`]; both share the [`Worker`]'s bookkeeping
//! ([`super::worker`]).

use arrayvec::ArrayVec;

use crate::game::{GameMove, MoveBuffer, Searchable};

use super::multiplayer::{self, BrsMove, OpponentModel};
use super::ordering::{pick, COUNTER};
use super::worker::{bound_of, mate_window, tt_cutoff, Worker};
use super::{INFINITY, MATE_BOUND};

impl<G: Searchable> Worker<'_, G> {
    /// Search of a node `ply` plies below the root with more than two players: the root
    /// player's nodes (and in paranoid mode every opponent's) search their moves, principal
    /// variation search with late-move reductions; best-reply search hands the opponents' nodes
    /// to [`Worker::brs_opponents`].
    pub(super) fn mp_negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.mp_qsearch(pos, alpha, beta, ply, 0);
        }
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        let stm = pos.side_to_move();

        (alpha, beta) = match mate_window(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        if self.teams.brs && stm != self.teams.root {
            return self.brs_opponents(pos, depth, alpha, beta, ply, pv_node, None);
        }

        let s = self.s;
        let in_check = pos.in_check();
        let key = pos.hash() ^ self.key_salt;
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(sc) = entry.and_then(|e| tt_cutoff(&e, depth, alpha, beta, ply, pv_node)) {
            return sc;
        }
        // Only kept in the table: no pruning here uses the static evaluation.
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(e) = entry {
            i32::from(e.eval)
        } else {
            self.evaluate(pos)
        };

        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        if list.moves().is_empty() {
            return self.teams.outcome_score(pos.no_moves_outcome(), stm, ply);
        }
        let base = self.order_moves(pos, list.moves(), tt_move, ply);
        let previous = self.previous(ply);
        let count = list.moves().len();

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<u16> = None;
        let mut quiets: ArrayVec<u16, 64> = ArrayVec::new();
        let mut noisies: ArrayVec<u16, 32> = ArrayVec::new();
        // No move is pruned here: the `i` moves before move `i` were all searched (LMR counts them).
        for i in 0..count {
            pick(list.moves_mut(), &mut self.scores[base..base + count], i);
            let m = list.moves()[i];
            let order_score = self.scores[base + i];
            let noisy = pos.is_noisy(m);
            let bits = m.to_bits();
            let quiet = !noisy;
            pos.make_move(m);
            let gives_check = pos.in_check();
            self.played[ply] = u32::from(bits);
            let same = self.teams.same(stm, pos.side_to_move());
            let check_extension = i32::from(
                gives_check && s.use_check_extension && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + check_extension;
            let score = if i == 0 {
                self.mp_child(pos, same, new_depth, alpha, beta, ply, pv_node)
            } else {
                let mut r = 0;
                if s.use_lmr && depth >= 3 && i >= 2 + usize::from(pv_node) && quiet && !in_check {
                    r = i32::from(self.lmr[depth.min(63) as usize][i.min(63)]);
                    r -= i32::from(pv_node);
                    r -= i32::from(order_score >= COUNTER);
                    r -= i32::from(gives_check);
                    if s.lmr_history_divisor > 0 && order_score < COUNTER {
                        r -= order_score / s.lmr_history_divisor;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut sc = self.mp_child(pos, same, new_depth - r, alpha, alpha + 1, ply, false);
                if sc > alpha && r > 0 {
                    sc = self.mp_child(pos, same, new_depth, alpha, alpha + 1, ply, false);
                }
                if pv_node && sc > alpha && sc < beta {
                    sc = self.mp_child(pos, same, new_depth, alpha, beta, ply, true);
                }
                sc
            };
            pos.undo_move(m);
            if self.stopped {
                self.scores.truncate(base);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(bits);
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
        let bound = bound_of(best, original_alpha, beta);
        self.store(key, ply, best, best_move, raw_eval, depth, bound);
        best
    }

    /// Searches the child reached by the move just made (more than two players); the window
    /// and the result are from the parent's point of view (the same when the team to move
    /// stays the same).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mp_child(
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
            self.mp_negamax(pos, depth, alpha, beta, ply + 1, pv_node)
        } else {
            -self.mp_negamax(pos, depth, -beta, -alpha, ply + 1, pv_node)
        }
    }

    /// Quiescence search with more than two players: noisy moves only (every move when in
    /// check), standing pat on the static evaluation otherwise; best-reply search hands the
    /// opponents' nodes to [`Worker::brs_opponents`]. No table here (its entries would mix
    /// the coalition's layers).
    fn mp_qsearch(&mut self, pos: &mut G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv_len[ply] = ply;
        if let Some(score) = self.node_start(pos, ply) {
            return score;
        }
        let stm = pos.side_to_move();
        if self.teams.brs && stm != self.teams.root {
            return self.brs_opponents(pos, 0, alpha, beta, ply, false, Some(qply));
        }
        let in_check = pos.in_check();
        let mut list = G::MoveList::default();
        let mut best;
        if in_check {
            pos.generate_moves(&mut list);
            if list.moves().is_empty() {
                return self.teams.outcome_score(pos.no_moves_outcome(), stm, ply);
            }
            best = -INFINITY;
        } else {
            let stand_pat = self.evaluate(pos);
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
        // With more than two players no losing noisy move goes last (`order_flags`).
        let base = self.order_moves(pos, list.moves(), None, ply);
        let count = list.moves().len();
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
                self.mp_qsearch(pos, alpha, beta, ply + 1, qply + 1)
            } else {
                -self.mp_qsearch(pos, -beta, -alpha, ply + 1, qply + 1)
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
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.scores.truncate(base);
        best
    }

    /// The opponents' layer of best-reply search (see [`super::multiplayer`]): every move of every
    /// opponent is tried, each followed by passes up to the root player, and the best one for
    /// the coalition counts; in the hybrid the modelled opponents ([`super::multiplayer::Teams::modelled`]) play
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
        let line = multiplayer::brs_moves(
            pos,
            &self.teams,
            &mut self.policy,
            qply.is_some(),
            tt_move,
            &mut moves,
        );
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
            let made = multiplayer::line_make(pos, &line, Some(m), &self.teams, &mut self.policy);
            let bits = m.mv.to_bits();
            self.played[ply] = u32::from(bits);
            let score = if let Some(q) = qply {
                -self.mp_qsearch(pos, -beta, -alpha, ply + 1, q + 1)
            } else {
                self.layer_line(pos, i == 0, depth, alpha, beta, ply, pv_node)
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
        if self.teams.ties_in(qply.is_some()) && self.teams.model != OpponentModel::Pass {
            let mut variants: Vec<BrsMove<G::Move>> = Vec::new();
            let line = multiplayer::tie_variants(pos, &self.teams, &mut self.policy, &mut variants);
            if !variants.is_empty() {
                return self.tie_layer(
                    pos, &line, &variants, depth, alpha, beta, ply, pv_node, qply,
                );
            }
        }
        // Each modelled opponent (every opponent under the policy model) plays its rule's move,
        // the others pass; after a finished game the rest of the layer passes.
        let made = multiplayer::line_make(pos, &[], None, &self.teams, &mut self.policy);
        let finished = pos.rule_outcome();
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
                None => -self.mp_negamax(pos, depth - 1, -beta, -alpha, ply + 1, pv_node),
            },
        };
        multiplayer::brs_undo(pos, made);
        score
    }

    /// The opponents' layer played by the model with its ties ([`multiplayer::POLICY_TIES`]),
    /// given its default `line` and `variants` from [`multiplayer::tie_variants`]: the line where every modelled opponent plays its policy move first, then each of
    /// `variants` (one modelled opponent breaking a tie otherwise), the coalition's best counting,
    /// as the best reply does. In quiescence each line ends at the static evaluation.
    #[allow(clippy::too_many_arguments)]
    fn tie_layer(
        &mut self,
        pos: &mut G,
        line: &multiplayer::LayerMoves<G::Move>,
        variants: &[BrsMove<G::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        qply: Option<u32>,
    ) -> i32 {
        let layer = pos.side_to_move();
        let mut best = -INFINITY;
        for i in 0..=variants.len() {
            let variant = i.checked_sub(1).and_then(|k| variants.get(k)).copied();
            let made = multiplayer::line_make(pos, line, variant, &self.teams, &mut self.policy);
            let score = if let Some(outcome) = pos.rule_outcome() {
                self.teams.outcome_score(outcome, layer, ply + 1)
            } else if qply.is_some() {
                self.tick();
                -self.evaluate(pos)
            } else {
                self.layer_line(pos, i == 0, depth, alpha, beta, ply, pv_node)
            };
            multiplayer::brs_undo(pos, made);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches the root player's node after one line of the opponents' layer (the layer's
    /// window and view): the first line with the full window, the others with a null window and
    /// again with the full one where they land inside it (principal variation search).
    #[allow(clippy::too_many_arguments)]
    fn layer_line(
        &mut self,
        pos: &mut G,
        first: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if first {
            return -self.mp_negamax(pos, depth - 1, -beta, -alpha, ply + 1, pv_node);
        }
        let s = -self.mp_negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, false);
        if pv_node && s > alpha && s < beta {
            -self.mp_negamax(pos, depth - 1, -beta, -alpha, ply + 1, true)
        } else {
            s
        }
    }
}
