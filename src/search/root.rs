//! The root of both searches: every root move searched in turn (principal variation search,
//! a one-ply reduction of late quiet moves), the MultiPV lines and the root moves' scores,
//! principal variations and node counts. Below the root the two-player search ([`super::pvs`])
//! or the search with more than two players ([`super::multiplayer_search`]) takes over.

use crate::game::{GameMove, Searchable};

use super::tt::{Bound, TtEntry};
use super::worker::{bound_of, score_to_tt, Worker};
use super::{SearchEvent, INFINITY};

impl<G: Searchable> Worker<'_, G> {
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
                self.root_child(pos, same, new_depth, alpha, beta, true)
            } else {
                let r = i32::from(
                    self.s.use_lmr && depth >= 3 && i >= first + 3 && !noisy && !gives_check,
                );
                let mut s = self.root_child(pos, same, new_depth - r, alpha, alpha + 1, false);
                if s > alpha && r > 0 {
                    s = self.root_child(pos, same, new_depth, alpha, alpha + 1, false);
                }
                if s > alpha && s < beta {
                    s = self.root_child(pos, same, new_depth, alpha, beta, true);
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

    /// Searches the child of the root reached by the move just made, with the search for the
    /// number of players; the window and the result are from the root's point of view.
    #[inline]
    fn root_child(
        &mut self,
        pos: &mut G,
        same_team: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        if self.teams.paranoid {
            self.mp_child(pos, same_team, depth, alpha, beta, 0, pv_node)
        } else {
            self.pvs_child(pos, same_team, depth, alpha, beta, 0, pv_node, !pv_node)
        }
    }
}
