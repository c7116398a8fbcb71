//! Tunable search parameters: the margins and depths of each pruning technique, and one on/off
//! switch per technique (`Search Use ...`, 0 or 1) so that a match can measure what a technique
//! is worth (`sanqi match ... "option.Search Use NullMove=0"`). They are UCI `spin` options like
//! the evaluation weights (see [`crate::tune`]); the search reads them at every node with a
//! relaxed atomic load.
//!
//! Two-player searches use all of them; in paranoid (more than two players) mode only the late
//! move reductions apply (see [`super::multiplayer`]).

crate::declare_params! {
    /// The search parameters, in the order `spsa` prints them.
    pub static PARAMS;
    /// First aspiration half-window (centipawns) around the previous iteration's score.
    pub ASPIRATION_WINDOW = "Search Aspiration Window", 25, 5, 400, 5;
    /// Reverse futility pruning on (1) or off (0).
    pub USE_RFP = "Search Use RFP", 1, 0, 1, 1;
    /// Reverse futility: deepest remaining depth where it applies.
    pub RFP_DEPTH = "Search RFP Depth", 6, 1, 12, 1;
    /// Reverse futility: margin per ply of remaining depth.
    pub RFP_MARGIN = "Search RFP Margin", 80, 10, 400, 10;
    /// Null-move pruning on (1) or off (0).
    pub USE_NULL_MOVE = "Search Use NullMove", 1, 0, 1, 1;
    /// Null move: smallest remaining depth where it is tried.
    pub NMP_MIN_DEPTH = "Search NMP Min Depth", 3, 1, 8, 1;
    /// Null move: base reduction.
    pub NMP_BASE = "Search NMP Base", 3, 1, 6, 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    pub NMP_DIVISOR = "Search NMP Divisor", 4, 1, 12, 1;
    /// Futility pruning of quiet moves on (1) or off (0). Off by default: it lost in both matches
    /// that measured it (see the README's search table).
    pub USE_FUTILITY = "Search Use Futility", 0, 0, 1, 1;
    /// Futility: deepest remaining depth where it applies.
    pub FUTILITY_DEPTH = "Search Futility Depth", 3, 1, 8, 1;
    /// Futility: margin at depth 0.
    pub FUTILITY_BASE = "Search Futility Base", 100, 0, 400, 10;
    /// Futility: margin added per ply of remaining depth.
    pub FUTILITY_MARGIN = "Search Futility Margin", 100, 10, 400, 10;
    /// Late move pruning on (1) or off (0).
    pub USE_LMP = "Search Use LMP", 1, 0, 1, 1;
    /// Late move pruning: deepest remaining depth where it applies.
    pub LMP_DEPTH = "Search LMP Depth", 3, 1, 8, 1;
    /// Late move pruning: quiet moves kept at depth d are `base + d * d`.
    pub LMP_BASE = "Search LMP Base", 3, 1, 20, 1;
    /// Late move reductions on (1) or off (0).
    pub USE_LMR = "Search Use LMR", 1, 0, 1, 1;
    /// Late move reductions: the reduction is `0.5 + ln(depth) * ln(move number) * 100 / divisor`.
    pub LMR_DIVISOR = "Search LMR Divisor", 250, 100, 600, 10;
    /// Check extension on (1) or off (0).
    pub USE_CHECK_EXTENSION = "Search Use Check Extension", 1, 0, 1, 1;
    /// A position repeated once inside the search path counts as a draw (1), or only the game's
    /// own rule (chess: third occurrence) ends it (0).
    pub USE_REPETITION_DRAW = "Search Use Twofold", 1, 0, 1, 1;
    /// Quiescence search skips captures that lose material by static exchange (1), or searches
    /// every noisy move (0). Only games with an exchange test ([`crate::game::Game::see_ge`]) prune.
    pub USE_QS_SEE = "Search Use QS SEE", 1, 0, 1, 1;
}

/// Whether a `Search Use ...` switch is on.
#[inline(always)]
pub(crate) fn on(p: &crate::tune::Param) -> bool {
    p.get() != 0
}
