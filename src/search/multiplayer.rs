//! Multi-player search: the paranoid algorithm (Sturtevant and Korf).
//!
//! With more than two players the root player maximises and every other player minimises the
//! root player's evaluation ([`crate::game::Game::evaluate_for`] of the root player): the
//! others are treated as one coalition. The same negamax code serves both cases through the
//! notion of a *team*: with two players every player is its own team; in paranoid mode the
//! teams are `{root}` and `{everyone else}`. A node's value is from the point of view of the
//! team to move, and a child's value is negated only when the team changes (two opponents in a
//! row keep the same sign and the same window). Terminal outcomes: a win of a player of the
//! team to move is `MATE - ply`, of the other team `-(MATE - ply)`.
//!
//! Paranoid scores depend on who the root player is, so in paranoid mode the table key is
//! salted with the root player. Null move, reverse futility, futility and late-move pruning
//! are off in paranoid mode (their margins assume alternating opponents); late-move reductions
//! stay on.

use crate::game::Outcome;

use super::MATE;

/// The multi-player algorithm used when a game has more than two players.
pub const MULTIPLAYER_ALGORITHM: &str = "paranoid";

/// How players are grouped for one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Teams {
    /// The player to move at the root.
    pub root: usize,
    /// Paranoid mode (more than two players).
    pub paranoid: bool,
}

impl Teams {
    pub(crate) fn new(root: usize, players: usize) -> Self {
        Teams {
            root,
            paranoid: players > 2,
        }
    }

    /// Whether `a` and `b` play on the same side.
    #[inline]
    pub(crate) fn same(&self, a: usize, b: usize) -> bool {
        if self.paranoid {
            (a == self.root) == (b == self.root)
        } else {
            a == b
        }
    }

    /// Salt xored into table keys (zero in two-player mode).
    #[inline]
    pub(crate) fn key_salt(&self) -> u64 {
        if self.paranoid {
            (self.root as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            0
        }
    }

    /// Score of a finished game for the team of `to_move`, `ply` plies from the root.
    #[inline]
    pub(crate) fn outcome_score(&self, outcome: Outcome, to_move: usize, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) => {
                if self.same(p, to_move) {
                    MATE - ply as i32
                } else {
                    -(MATE - ply as i32)
                }
            }
        }
    }
}
