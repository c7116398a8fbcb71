//! Tunable search parameters: the margins and depths of each pruning technique, and one on/off
//! switch per technique (`Search Use ...`, 0 or 1) so that a match can measure what a technique
//! is worth (`sanqi match ... "option.Search Use NullMove=0"`). They are UCI `spin` options like
//! the evaluation weights (see [`crate::params`]); the search reads them at every node with a
//! relaxed atomic load.
//!
//! Two-player searches use all of them; in paranoid (more than two players) mode only the late
//! move reductions apply (see [`super::multiplayer`]).

use crate::params::Param;

/// First aspiration half-window (centipawns) around the previous iteration's score.
pub static ASPIRATION_WINDOW: Param = Param::new("Search Aspiration Window", 25, 5, 400, 5);

/// Reverse futility pruning on (1) or off (0).
pub static USE_RFP: Param = Param::new("Search Use RFP", 1, 0, 1, 1);
/// Reverse futility: deepest remaining depth where it applies.
pub static RFP_DEPTH: Param = Param::new("Search RFP Depth", 6, 1, 12, 1);
/// Reverse futility: margin per ply of remaining depth.
pub static RFP_MARGIN: Param = Param::new("Search RFP Margin", 80, 10, 400, 10);

/// Null-move pruning on (1) or off (0).
pub static USE_NULL_MOVE: Param = Param::new("Search Use NullMove", 1, 0, 1, 1);
/// Null move: smallest remaining depth where it is tried.
pub static NMP_MIN_DEPTH: Param = Param::new("Search NMP Min Depth", 3, 1, 8, 1);
/// Null move: base reduction.
pub static NMP_BASE: Param = Param::new("Search NMP Base", 3, 1, 6, 1);
/// Null move: one more ply of reduction per this many plies of depth.
pub static NMP_DIVISOR: Param = Param::new("Search NMP Divisor", 4, 1, 12, 1);

/// Futility pruning of quiet moves on (1) or off (0). Off by default: it lost in both matches
/// that measured it (see the README's search table).
pub static USE_FUTILITY: Param = Param::new("Search Use Futility", 0, 0, 1, 1);
/// Futility: deepest remaining depth where it applies.
pub static FUTILITY_DEPTH: Param = Param::new("Search Futility Depth", 3, 1, 8, 1);
/// Futility: margin at depth 0.
pub static FUTILITY_BASE: Param = Param::new("Search Futility Base", 100, 0, 400, 10);
/// Futility: margin added per ply of remaining depth.
pub static FUTILITY_MARGIN: Param = Param::new("Search Futility Margin", 100, 10, 400, 10);

/// Late move pruning on (1) or off (0).
pub static USE_LMP: Param = Param::new("Search Use LMP", 1, 0, 1, 1);
/// Late move pruning: deepest remaining depth where it applies.
pub static LMP_DEPTH: Param = Param::new("Search LMP Depth", 3, 1, 8, 1);
/// Late move pruning: quiet moves kept at depth d are `base + d * d`.
pub static LMP_BASE: Param = Param::new("Search LMP Base", 3, 1, 20, 1);

/// Late move reductions on (1) or off (0).
pub static USE_LMR: Param = Param::new("Search Use LMR", 1, 0, 1, 1);
/// Late move reductions: the reduction is `0.5 + ln(depth) * ln(move number) * 100 / divisor`.
pub static LMR_DIVISOR: Param = Param::new("Search LMR Divisor", 250, 100, 600, 10);

/// Check extension on (1) or off (0).
pub static USE_CHECK_EXTENSION: Param = Param::new("Search Use Check Extension", 1, 0, 1, 1);

/// Quiescence search skips captures that lose material by static exchange (1), or searches
/// every noisy move (0). Only games with an exchange test ([`crate::game::Game::see_ge`]) prune.
pub static USE_QS_SEE: Param = Param::new("Search Use QS SEE", 1, 0, 1, 1);

/// A position repeated once inside the search path counts as a draw (1), or only the game's
/// own rule (chess: third occurrence) ends it (0).
pub static USE_REPETITION_DRAW: Param = Param::new("Search Use Twofold", 1, 0, 1, 1);

/// The search parameters, in the order `spsa` prints them.
pub static PARAMS: &[&Param] = &[
    &ASPIRATION_WINDOW,
    &USE_RFP,
    &RFP_DEPTH,
    &RFP_MARGIN,
    &USE_NULL_MOVE,
    &NMP_MIN_DEPTH,
    &NMP_BASE,
    &NMP_DIVISOR,
    &USE_FUTILITY,
    &FUTILITY_DEPTH,
    &FUTILITY_BASE,
    &FUTILITY_MARGIN,
    &USE_LMP,
    &LMP_DEPTH,
    &LMP_BASE,
    &USE_LMR,
    &LMR_DIVISOR,
    &USE_CHECK_EXTENSION,
    &USE_REPETITION_DRAW,
    &USE_QS_SEE,
];

/// Whether a `Search Use ...` switch is on.
#[inline(always)]
pub(crate) fn on(p: &Param) -> bool {
    p.get() != 0
}
