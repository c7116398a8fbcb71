//! Game end by rule: repetition (perpetual check and perpetual chase lose) and the 120-ply
//! move limit.
//!
//! Choices (following Pikafish and Fairy-Stockfish):
//! - A repetition ends the game when the current position (same pieces, same side to move) occurs
//!   for the **third** time, looking back only since the last capture or null move (positions
//!   before a capture cannot recur; soldier moves cannot be undone either, and the Zobrist key
//!   tells such positions apart anyway).
//! - The repeated cycle is everything played since the *first* of the three occurrences. A side
//!   all of whose moves in that cycle gave check is checking perpetually. If exactly one side
//!   checks perpetually, it loses; if both do (mutual perpetual check), the game is drawn.
//! - If neither side checks perpetually, the chase rule (the `chase` module) decides: a side
//!   that chased one and the same piece with every move of the cycle loses; if both do (mutual
//!   chase) or neither does, the game is drawn.
//! - **Move limit:** 120 plies (60 moves per side) without a capture is a draw, as in Pikafish
//!   (`rule60`). The count is the FEN's half-move field plus the plies played since. A mate given
//!   on the ply that reaches the limit still counts as mate: this function then returns `None`
//!   and the caller's no-legal-moves test decides. (ElephantEye uses 100 plies not counting
//!   checks; we chose Pikafish's rule because it is the strongest engine's and the simplest.)

use super::{chase, movegen, Xiangqi, XiangqiMoveList};
use crate::game::Outcome;

/// Plies without a capture after which the game is drawn.
pub const MOVE_LIMIT: u16 = 120;

/// Occurrences of a position that end the game by repetition.
pub const REPETITIONS: usize = 3;

/// See the module comment.
pub(super) fn rule_outcome(pos: &Xiangqi) -> Option<Outcome> {
    rule_outcome_within(pos, 0)
}

/// [`rule_outcome`], except that a position repeating one of the last `path` plies (played
/// inside the search) is judged as a repetition already, over the cycle since that occurrence.
pub(super) fn rule_outcome_within(pos: &Xiangqi, path: usize) -> Option<Outcome> {
    if let Some((o, _)) = repetition(pos, path) {
        return Some(o);
    }
    if pos.st.rule60 >= MOVE_LIMIT {
        if pos.st.in_check {
            let mut list = XiangqiMoveList::new();
            movegen::generate::<true>(pos, &mut list);
            if list.is_empty() {
                return None;
            }
        }
        return Some(Outcome::Draw);
    }
    None
}

/// What decided a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Repetition {
    /// One side checked with every move of the cycle (and the other did not): it loses.
    PerpetualCheck,
    /// One side chased the same piece with every move of the cycle (and the other did not):
    /// it loses.
    PerpetualChase,
    /// Both sides checked perpetually.
    MutualCheck,
    /// Both sides chased perpetually.
    MutualChase,
    /// No side checked or chased perpetually.
    Plain,
}

/// Why the game stands ended by rule, in the words of a game record.
pub(super) fn reason(pos: &Xiangqi, outcome: Outcome) -> &'static str {
    match (outcome, repetition(pos, 0)) {
        (Outcome::Win(_), Some((_, Repetition::PerpetualChase))) => "by perpetual chase",
        (Outcome::Win(_), Some(_)) => "by perpetual check",
        (Outcome::Draw, Some((_, Repetition::MutualCheck))) => {
            "by repetition (mutual perpetual check)"
        }
        (Outcome::Draw, Some((_, Repetition::MutualChase))) => {
            "by repetition (mutual perpetual chase)"
        }
        (Outcome::Draw, Some(_)) => "by repetition",
        (Outcome::Draw, None) if pos.st.rule60 >= MOVE_LIMIT => "by the 60-move rule",
        _ => "by rule",
    }
}

/// The repetition verdict and what decided it, if the current position occurs for the third
/// time (or repeats one of the last `path` plies).
pub(super) fn repetition(pos: &Xiangqi, path: usize) -> Option<(Outcome, Repetition)> {
    let n = pos.history.len();
    let window = usize::from(pos.st.repetition_window).min(n);
    let mut found = 0;
    let mut back = 4;
    let mut first_back = 0;
    while back <= window {
        if pos.history.get(n - back).map(|s| s.hash) == Some(pos.st.hash) {
            found += 1;
            first_back = back;
            if found == REPETITIONS - 1 || back <= path {
                break;
            }
        }
        back += 2;
    }
    if found < REPETITIONS - 1 && !(found > 0 && first_back <= path) {
        return None;
    }
    // Positions n - first_back + 1 ..= n were each reached by a move; the state of position j
    // says whether that move gave check. The mover into position j is the side to move at j - 1.
    let mut perpetual = [true; 2];
    for j in (n - first_back + 1)..=n {
        let state = if j == n {
            pos.st
        } else {
            pos.history.get(j).copied()?
        };
        let side_at_j = if (n - j) % 2 == 0 {
            pos.side
        } else {
            pos.side ^ 1
        };
        let mover = side_at_j ^ 1;
        if !state.in_check {
            perpetual[mover] = false;
        }
    }
    // Perpetual check is judged first; the chase rule only where neither side checks with
    // every move (it replays the cycle, so it costs nothing until a repetition is found).
    Some(match perpetual {
        [true, false] => (Outcome::Win(1), Repetition::PerpetualCheck),
        [false, true] => (Outcome::Win(0), Repetition::PerpetualCheck),
        [true, true] => (Outcome::Draw, Repetition::MutualCheck),
        [false, false] => match chase::perpetual_chasers(pos, first_back) {
            [true, false] => (Outcome::Win(1), Repetition::PerpetualChase),
            [false, true] => (Outcome::Win(0), Repetition::PerpetualChase),
            [true, true] => (Outcome::Draw, Repetition::MutualChase),
            [false, false] => (Outcome::Draw, Repetition::Plain),
        },
    })
}
