//! Multi-player search: best-reply search (Schadd and Winands 2011, the default) and the
//! paranoid algorithm (Sturtevant and Korf), chosen by the `Search Multiplayer BRS` option
//! ([`BRS`]: 1 best-reply, 0 paranoid).
//!
//! With more than two players the root player maximises and the other players minimise the
//! root player's evaluation ([`crate::game::Game::evaluate_for`] of the root player): the
//! others are treated as one coalition. The same negamax code serves both cases through the
//! notion of a *team*: with two players every player is its own team; with more the teams are
//! `{root}` and `{everyone else}`. A node's value is from the point of view of the team to
//! move, and a child's value is negated only when the team changes (two opponents in a row keep
//! the same sign and the same window). Terminal outcomes: a win of a player of the team to
//! move is `MATE - ply`, of the other team `-(MATE - ply)`.
//!
//! *Paranoid*: every player moves in turn, so the root player moves once every `n` plies.
//! *Best-reply search*: after each root move comes one layer where every move of every
//! opponent is tried and only the best one for the coalition counts (the other opponents pass:
//! [`crate::game::Game::make_null_move`], only where [`crate::game::Game::can_pass`]), so the root player moves every other layer and sees
//! deeper into its own plans. Mate scores count layers, so `Mate(k)` is still a win on the
//! root player's k-th move. The principal variation stops at the first opponents' layer (its
//! moves do not follow the turn order). Best-reply search needs a game whose null move hands
//! the turn on (Chinese checkers); for other games the search falls back to paranoid.
//!
//! *Opponent model* ([`OPPONENTS`], `Search Multiplayer Opponents`): the opponents' layer of
//! best-reply search may instead be played by a model, one move per opponent: every opponent in
//! turn plays its [`crate::game::Game::policy_move`] (2, the default; Chinese checkers: the
//! greedy move, the move a self-interested racer makes) or passes (1); in quiescence the
//! modelled replies end the line at the static evaluation. Against five greedy players at 20,000
//! nodes a move this won 29 of 30 six-player games where the best reply won 14 of 30 (README,
//! "Chinese checkers: against the greedy player").
//!
//! Scores depend on who the root player is and on the algorithm, so the table key is salted
//! with both. Null move, reverse futility, futility and late-move pruning are off with more
//! than two players (their margins assume alternating opponents); late-move reductions stay on.
//!
//! Measured (`sanqi match`, Chinese checkers, 20,000 nodes a move, one best-reply engine
//! against paranoid engines in the other seats, seats rotated; an engine at par would score
//! 1/n of the games):
//!
//! | players | games | best-reply | paranoid engines |
//! |---|---|---|---|
//! | 3 | 60 | 36 wins (60%) | 15 and 9 wins |
//! | 4 | 20 | 12 wins (60%) | 2, 2 and 4 wins |
//! | 6 | 12 | 8 wins (67%) | 1, 1, 2, 0 and 0 wins |
//!
//! ```sh
//! sanqi match --game chinesecheckers --players 3 --nodes 20000 --rounds 20 --random-plies 6 \
//!   --seed 1 --engine cmd=sanqi name=brs "option.Search Multiplayer BRS=1" \
//!   --engine cmd=sanqi name=paranoid1 --engine cmd=sanqi name=paranoid2
//! ```
//! and likewise `--players 4 --rounds 5 --random-plies 8` with three paranoid engines and
//! `--players 6 --rounds 2 --random-plies 12` with five (made while the option's default was 0,
//! so the paranoid engines needed no option; today they need `option.Search Multiplayer BRS=0`).

use crate::game::{Game, GameMove, MoveBuffer, Outcome};

use super::MATE;

/// The multi-player algorithm used by default when a game has more than two players.
pub const MULTIPLAYER_ALGORITHM: &str = "brs";

/// Default of [`BRS`] (1 exactly when [`MULTIPLAYER_ALGORITHM`] is `brs`; a test checks it).
const BRS_DEFAULT: i32 = 1;

crate::declare_params! {
    /// The multi-player search parameters.
    pub static PARAMS;
    /// 1: best-reply search, 0: paranoid (for more than two players).
    pub BRS = "Search Multiplayer BRS", BRS_DEFAULT, 0, 1, 1;
    /// The opponents' layer of best-reply search: 0, the best reply of any opponent for the
    /// coalition; 1, every opponent passes (the root player searches its race as if alone);
    /// 2, every opponent in turn plays its [`Game::policy_move`] (a model of self-interested
    /// opponents; a pass where the game has none).
    pub OPPONENTS = "Search Multiplayer Opponents", OPPONENTS_DEFAULT, 0, 2, 1;
}

/// Default of [`OPPONENTS`].
const OPPONENTS_DEFAULT: i32 = 2;

/// How the opponents' layer of best-reply search is played ([`OPPONENTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpponentModel {
    /// Every move of every opponent; the best one for the coalition counts.
    BestReply,
    /// Every opponent passes.
    Pass,
    /// Every opponent plays its policy move.
    Policy,
}

/// The multi-player algorithm in use now (`paranoid` or `brs`, from [`BRS`]).
pub fn multiplayer_algorithm() -> &'static str {
    if BRS.get() != 0 {
        "brs"
    } else {
        "paranoid"
    }
}

/// How players are grouped for one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Teams {
    /// The player to move at the root.
    pub root: usize,
    /// Paranoid mode (more than two players): the root against a coalition of the others.
    pub paranoid: bool,
    /// Best-reply search (more than two players, with [`BRS`] set): the coalition's layer
    /// plays only the best single reply of any opponent.
    pub brs: bool,
    /// How best-reply search plays the opponents' layer ([`OPPONENTS`]).
    pub model: OpponentModel,
}

impl Teams {
    pub(crate) fn new(root: usize, players: usize) -> Self {
        Teams {
            root,
            paranoid: players > 2,
            brs: players > 2 && BRS.get() != 0,
            model: OpponentModel::BestReply,
        }
    }

    /// The teams of a search from `root`: best-reply search only where [`BRS`] is set and the
    /// game can pass a turn ([`Game::can_pass`]: [`Game::make_null_move`] hands the move to the
    /// next player), paranoid otherwise.
    pub(crate) fn for_position<G: Game>(root: &G) -> Self {
        let mut teams = Teams::new(root.side_to_move(), root.num_players());
        teams.brs = teams.brs && root.can_pass();
        teams.model = match OPPONENTS.get() {
            1 => OpponentModel::Pass,
            2 => OpponentModel::Policy,
            _ => OpponentModel::BestReply,
        };
        teams
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
            (self.root as u64 + 1 + 8 * u64::from(self.brs) + 16 * self.model as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
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

/// One move of the opponents' layer of best-reply search: `passes` opponents pass, then the
/// next one plays `mv`, then the rest pass until the root player is to move again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BrsMove<M> {
    /// Opponents that pass before the move.
    pub passes: u8,
    /// The move.
    pub mv: M,
    /// Ordering key (larger first).
    pub order: i32,
}

/// The moves (noisy ones only when `noisy`) of every opponent of `root`, starting with the side
/// to move of `pos` (which must not be `root`), ordered: the move with bits `tt_move` first,
/// then by [`Game::noisy_order`]. `pos` is given back unchanged.
pub(crate) fn brs_moves<G: Game>(
    pos: &mut G,
    root: usize,
    noisy: bool,
    tt_move: Option<u16>,
    out: &mut Vec<BrsMove<G::Move>>,
) {
    out.clear();
    let mut list = G::MoveList::default();
    let mut passes = 0u8;
    while pos.side_to_move() != root {
        if noisy {
            pos.generate_noisy(&mut list);
        } else {
            pos.generate_moves(&mut list);
        }
        for &mv in list.moves() {
            let order = if Some(mv.to_bits()) == tt_move {
                i32::MAX
            } else {
                pos.noisy_order(mv)
            };
            out.push(BrsMove { passes, mv, order });
        }
        pos.make_null_move();
        passes += 1;
    }
    for _ in 0..passes {
        pos.undo_null_move();
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.order));
}

/// Plays a [`BrsMove`] and the passes after it (until `root` is to move); returns how many
/// passes followed, for [`brs_undo`].
pub(crate) fn brs_make<G: Game>(pos: &mut G, m: BrsMove<G::Move>, root: usize) -> u8 {
    for _ in 0..m.passes {
        pos.make_null_move();
    }
    pos.make_move(m.mv);
    let mut after = 0u8;
    while pos.side_to_move() != root {
        pos.make_null_move();
        after += 1;
    }
    after
}

/// Takes back [`brs_make`].
pub(crate) fn brs_undo<G: Game>(pos: &mut G, m: BrsMove<G::Move>, after: u8) {
    for _ in 0..after {
        pos.undo_null_move();
    }
    pos.undo_move(m.mv);
    for _ in 0..m.passes {
        pos.undo_null_move();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_algorithm_matches_the_parameter() {
        assert_eq!(BRS.default == 1, MULTIPLAYER_ALGORITHM == "brs");
        assert!(MULTIPLAYER_ALGORITHM == "brs" || MULTIPLAYER_ALGORITHM == "paranoid");
    }
}
