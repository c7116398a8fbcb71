//! Tunable search parameters, one set per game: the margins and depths of each pruning
//! technique, and one on/off switch per technique (`Use ...`, 0 or 1) so that a match can measure
//! what a technique is worth. A switch is a `bool` field of [`Settings`] (and [`Spec::switch`]),
//! so the search tests it as such and `spsa` can leave it out. Each game gets its own copy of the whole table, named
//! `Search <label> <suffix>` after the game's [`SearchHints::SEARCH_LABEL`] (`Search Chess RFP Margin`,
//! `Search Xiangqi Use RFP`, `Search CC LMR Divisor`), with the game's own defaults
//! ([`SearchHints::SEARCH_DEFAULTS`] overrides the generic ones below). They are UCI `spin` options like
//! the evaluation weights (see [`crate::tune`]); a search reads its game's values once, at its
//! start, into a [`Settings`].
//!
//! Two-player searches use all of them; in paranoid (more than two players) mode only the late
//! move reductions apply (see [`super::multiplayer`]).

use std::sync::LazyLock;

use parking_lot::Mutex;

use crate::game::SearchHints;
use crate::tune::Param;

/// One entry of the table: the option name's suffix, the generic default, the range and the SPSA
/// step.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The option name after `Search <label> `.
    pub suffix: &'static str,
    /// The default unless the game overrides it.
    pub default: i32,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// SPSA step.
    pub step: i32,
    /// Whether the row is an on/off switch (0 or 1; a `bool` in [`Settings`]).
    pub switch: bool,
}

/// The type of a row's field in [`Settings`]: `i32` for a tunable value, `bool` for an on/off
/// switch (a row whose option is 0 or 1).
pub trait RowValue: Copy {
    /// Whether rows of this type are switches.
    const SWITCH: bool;
    /// The field's value from the option's value.
    fn from_option(v: i32) -> Self;
}

impl RowValue for i32 {
    const SWITCH: bool = false;
    #[inline]
    fn from_option(v: i32) -> Self {
        v
    }
}

impl RowValue for bool {
    const SWITCH: bool = true;
    #[inline]
    fn from_option(v: i32) -> Self {
        v != 0
    }
}

/// Declares the table once: the [`Settings`] fields (their type says whether the row is a
/// switch) and the [`TEMPLATE`] rows, in one order.
macro_rules! search_params {
    ($( $(#[$doc:meta])* $field:ident : $ty:ty = $suffix:literal, $def:expr, $min:expr, $max:expr, $step:expr; )*) => {
        /// One game's search settings, read from its options once per search: the switches as
        /// booleans, the other rows as their values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Settings {
            $( $(#[$doc])* #[doc = concat!("\n\nOption `Search <game> ", $suffix, "`.")] pub $field: $ty, )*
        }

        /// Every row of the table, in the order of [`Settings`]'s fields (the order `spsa` prints).
        pub const TEMPLATE: &[Spec] = &[
            $( Spec {
                suffix: $suffix,
                default: $def,
                min: $min,
                max: $max,
                step: $step,
                switch: <$ty as RowValue>::SWITCH,
            }, )*
        ];

        impl Settings {
            /// The settings from the values of the table's rows, in order (missing rows: defaults).
            fn from_values(values: &[i32]) -> Settings {
                let mut values = values.iter().copied();
                Settings { $( $field: <$ty as RowValue>::from_option(values.next().unwrap_or($def)), )* }
            }
        }
    };
}

search_params! {
    /// First aspiration half-window (centipawns) around the previous iteration's score.
    aspiration_window: i32 = "Aspiration Window", 25, 5, 400, 5;
    /// Reverse futility pruning on (1) or off (0).
    use_rfp: bool = "Use RFP", 1, 0, 1, 1;
    /// Reverse futility: deepest remaining depth where it applies.
    rfp_depth: i32 = "RFP Depth", 6, 1, 12, 1;
    /// Reverse futility: margin per ply of remaining depth.
    rfp_margin: i32 = "RFP Margin", 80, 10, 400, 10;
    /// Null-move pruning on (1) or off (0).
    use_null_move: bool = "Use NullMove", 1, 0, 1, 1;
    /// Null move: smallest remaining depth where it is tried.
    nmp_min_depth: i32 = "NMP Min Depth", 3, 1, 8, 1;
    /// Null move: base reduction.
    nmp_base: i32 = "NMP Base", 3, 1, 6, 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_divisor: i32 = "NMP Divisor", 4, 1, 12, 1;
    /// Futility pruning of quiet moves on (1) or off (0). Off by default: it lost in both matches
    /// that measured it (see the tables of docs/search.md).
    use_futility: bool = "Use Futility", 0, 0, 1, 1;
    /// Futility: deepest remaining depth where it applies.
    futility_depth: i32 = "Futility Depth", 3, 1, 8, 1;
    /// Futility: margin at depth 0.
    futility_base: i32 = "Futility Base", 100, 0, 400, 10;
    /// Futility: margin added per ply of remaining depth.
    futility_margin: i32 = "Futility Margin", 100, 10, 400, 10;
    /// Late move pruning on (1) or off (0).
    use_lmp: bool = "Use LMP", 1, 0, 1, 1;
    /// Late move pruning: deepest remaining depth where it applies.
    lmp_depth: i32 = "LMP Depth", 3, 1, 8, 1;
    /// Late move pruning: quiet moves kept at depth d are `base + d * d`.
    lmp_base: i32 = "LMP Base", 3, 1, 20, 1;
    /// Late move pruning spares the quiet moves that give check (1: each late quiet move is
    /// made to see; 0: late quiet moves are pruned unmade, checks included).
    use_late_checks: bool = "Use Late Checks", 0, 0, 1, 1;
    /// Quiescence search's first ply also searches the quiet moves that give check, where the
    /// game generates them (1), or captures and promotions alone (0).
    use_qs_checks: bool = "Use QS Checks", 0, 0, 1, 1;
    /// Late move reductions on (1) or off (0).
    use_lmr: bool = "Use LMR", 1, 0, 1, 1;
    /// Late move reductions: the reduction is `0.5 + ln(depth) * ln(move number) * 100 / divisor`.
    lmr_divisor: i32 = "LMR Divisor", 250, 100, 600, 10;
    /// Check extension on (1) or off (0).
    use_check_extension: bool = "Use Check Extension", 1, 0, 1, 1;
    /// A position repeated once inside the search path counts as a draw (1), or only the game's
    /// own rule (chess: third occurrence) ends it (0).
    use_twofold: bool = "Use Twofold", 1, 0, 1, 1;
    /// The transposition table in quiescence search: probed for cutoffs and the stand-pat
    /// evaluation, written with the result (1), or not used there (0). Only games whose
    /// quiescence ends by itself (captures) use it.
    use_qs_tt: bool = "Use QS TT", 1, 0, 1, 1;
    /// The "improving" flag (the static evaluation rose since the side's previous move) widens
    /// reverse futility, tightens late move pruning and reduces more when not improving (1).
    use_improving: bool = "Use Improving", 1, 0, 1, 1;
    /// Late move reductions: a quiet move's history changes its reduction by `history / divisor`
    /// plies (0: off).
    lmr_history_divisor: i32 = "LMR History Divisor", 8192, 0, 32768, 512;
    /// Internal iterative reduction: a node without a table move searches one ply shallower (1).
    use_iir: bool = "Use IIR", 1, 0, 1, 1;
    /// Internal iterative reduction: smallest depth where it applies.
    iir_depth: i32 = "IIR Depth", 4, 2, 12, 1;
    /// Moves that lose material by static exchange are pruned near the leaves (1).
    use_see_pruning: bool = "Use SEE Pruning", 1, 0, 1, 1;
    /// SEE pruning: deepest remaining depth where it applies.
    see_depth: i32 = "SEE Depth", 7, 1, 12, 1;
    /// SEE pruning of quiet moves: the loss allowed per ply of depth.
    see_quiet_margin: i32 = "SEE Quiet Margin", 60, 0, 300, 10;
    /// SEE pruning of noisy moves: the loss allowed per ply of depth, squared.
    see_noisy_margin: i32 = "SEE Noisy Margin", 25, 0, 200, 5;
    /// Noisy moves that lose material by static exchange are ordered after the quiet moves (1).
    use_bad_noisy_last: bool = "Use Bad Noisy Last", 1, 0, 1, 1;
    /// The table's score replaces the static evaluation where its bound allows (1).
    use_tt_eval: bool = "Use TT Eval", 1, 0, 1, 1;
    /// Quiet moves with a bad history are pruned near the leaves (1).
    use_history_pruning: bool = "Use History Pruning", 1, 0, 1, 1;
    /// History pruning: deepest remaining depth where it applies.
    history_pruning_depth: i32 = "History Pruning Depth", 3, 1, 8, 1;
    /// History pruning: a quiet move is pruned below `-margin * depth` of history.
    history_pruning_margin: i32 = "History Pruning Margin", 2048, 256, 16384, 256;
    /// Null move: one more ply of reduction per this much evaluation above beta (0: off).
    nmp_eval_divisor: i32 = "NMP Eval Divisor", 200, 0, 1000, 20;
    /// Razoring: far below alpha near the leaves, a quiescence search decides (1).
    use_razoring: bool = "Use Razoring", 1, 0, 1, 1;
    /// Razoring: deepest remaining depth where it applies.
    razoring_depth: i32 = "Razoring Depth", 3, 1, 6, 1;
    /// Razoring: the margin per ply of remaining depth.
    razoring_margin: i32 = "Razoring Margin", 250, 50, 800, 25;
    /// Capture history: noisy moves that caused cutoffs are ordered first among equals (1).
    use_capture_history: bool = "Use Capture History", 1, 0, 1, 1;
    /// Static-evaluation correction history keyed by the game's structure key (chess: the pawns,
    /// xiangqi: the soldiers) (1).
    use_correction: bool = "Use Correction History", 1, 0, 1, 1;
    /// Singular extensions: the table move is searched one ply deeper when every other move
    /// fails well below its score (with multi-cut and negative extensions) (1).
    use_singular: bool = "Use Singular", 0, 0, 1, 1;
    /// Singular extensions: smallest depth where they are tried.
    singular_depth: i32 = "Singular Depth", 6, 4, 14, 1;
    /// Singular extensions: the other moves must stay `margin * depth / 4` below the table score.
    singular_margin: i32 = "Singular Margin", 8, 1, 40, 1;
    /// Quiescence search skips captures that lose material by static exchange (1), or searches
    /// every noisy move (0). Only games with an exchange test ([`crate::game::SearchHints::see_ge`]) prune.
    use_qs_see: bool = "Use QS SEE", 1, 0, 1, 1;
    /// ProbCut: at depth `ProbCut Depth` and more, a noisy move that beats beta by
    /// `ProbCut Margin` in a search four plies shallower cuts the node (1).
    use_probcut: bool = "Use ProbCut", 0, 0, 1, 1;
    /// ProbCut: smallest remaining depth where it is tried.
    probcut_depth: i32 = "ProbCut Depth", 5, 3, 12, 1;
    /// ProbCut: how far above beta the reduced search must reach.
    probcut_margin: i32 = "ProbCut Margin", 200, 50, 600, 10;
    /// Late move reductions reduce `Cut Node Reduction` plies more at expected cut nodes (the
    /// zero-window children that a fail-high is expected from) (1).
    use_cut_node_lmr: bool = "Use Cut Node LMR", 0, 0, 1, 1;
    /// Late move reductions: the extra plies at an expected cut node.
    cut_node_reduction: i32 = "Cut Node Reduction", 2, 1, 4, 1;
    /// Late move reductions: a quiet move is reduced one ply more when the table move is noisy (1).
    use_tt_noisy_lmr: bool = "Use TT Noisy LMR", 0, 0, 1, 1;
    /// A reduced move that beat alpha is searched again one ply deeper when it beat the best
    /// score by far, one ply shallower when it barely did (1).
    use_lmr_deeper: bool = "Use LMR Deeper", 0, 0, 1, 1;
    /// Singular extensions: a table move far more singular than the margin asks is extended by
    /// two plies outside PV nodes (1).
    use_double_extension: bool = "Use Double Extension", 0, 0, 1, 1;
    /// Double extensions: how far below the singular bound the other moves must stay.
    double_extension_margin: i32 = "Double Extension Margin", 20, 0, 200, 5;
    /// Quiescence search skips a capture that gives no check when the standing evaluation plus
    /// `QS Futility Margin` plus its exchange cannot reach alpha (1).
    use_qs_futility: bool = "Use QS Futility", 0, 0, 1, 1;
    /// Quiescence futility: the margin above the standing evaluation.
    qs_futility_margin: i32 = "QS Futility Margin", 200, 0, 600, 10;
    /// Follow-up history: quiet moves are also ordered (and reduced and pruned) by how they did
    /// two plies after the same move (in two-player games: after the mover's own previous move) (1).
    use_followup_history: bool = "Use Followup History", 0, 0, 1, 1;
    /// Quiescence search stands pat on the corrected static evaluation (the correction history),
    /// refined by the table's score where its bound allows, as the main search does (1).
    use_qs_refined_eval: bool = "Use QS Refined Eval", 0, 0, 1, 1;
    /// The history bonus of a cutoff: 0 the square of the depth (at most 1200); else this many
    /// points per ply of depth (at most 2048, an eighth of the history's range).
    history_bonus_slope: i32 = "History Bonus Slope", 0, 0, 512, 16;
    /// The static evaluation shrinks toward a draw as the game's no-capture (fifty-move) counter
    /// grows: times `(2L - c) / 2L` for `c` plies counted of the rule's `L` (1).
    use_fifty_scale: bool = "Use Fifty Scale", 0, 0, 1, 1;
    /// Correction history also keyed by each side's pieces other than the structure (chess:
    /// pieces but pawns; xiangqi: pieces but soldiers): the three corrections add up and each
    /// learns what the sum still misses (1).
    use_piece_correction: bool = "Use Piece Correction", 0, 0, 1, 1;
    /// Reverse futility returns the mean of the evaluation and beta instead of the evaluation (1).
    use_rfp_blend: bool = "Use RFP Blend", 0, 0, 1, 1;
    /// Late move reductions also reduce late noisy moves, one ply less than quiet ones (1).
    use_noisy_lmr: bool = "Use Noisy LMR", 0, 0, 1, 1;
}

/// One game's table of search parameters (UCI spin options).
#[derive(Debug)]
pub struct SearchParams {
    /// The game's [`Rules::NAME`].
    pub game: &'static str,
    params: Vec<Param>,
}

impl SearchParams {
    fn new(game: &'static str, label: &str, overrides: &[(&str, i32)]) -> SearchParams {
        let params = TEMPLATE
            .iter()
            .map(|spec| {
                let default = overrides
                    .iter()
                    .find(|(suffix, _)| suffix.eq_ignore_ascii_case(spec.suffix))
                    .map_or(spec.default, |&(_, v)| v.clamp(spec.min, spec.max));
                let name = if label.is_empty() {
                    format!("Search {}", spec.suffix)
                } else {
                    format!("Search {label} {}", spec.suffix)
                };
                // One name per game and row, made once for the life of the process.
                let name: &'static str = Box::leak(name.into_boxed_str());
                Param::new(name, default, spec.min, spec.max, spec.step)
            })
            .collect();
        SearchParams { game, params }
    }

    /// The parameters, in [`TEMPLATE`] order.
    pub fn params(&'static self) -> impl Iterator<Item = &'static Param> {
        self.params.iter()
    }

    /// The current values.
    pub fn settings(&self) -> Settings {
        let values: Vec<i32> = self.params.iter().map(Param::get).collect();
        Settings::from_values(&values)
    }
}

/// The tables made so far, one per game (made on first use).
static TABLES: LazyLock<Mutex<Vec<&'static SearchParams>>> =
    LazyLock::new(|| Mutex::new(Vec::new()));

/// The search parameters of the game `G`, with its label and defaults.
pub fn for_game<G: SearchHints>() -> &'static SearchParams {
    let mut tables = TABLES.lock();
    if let Some(t) = tables.iter().find(|t| t.game == G::NAME) {
        return t;
    }
    let table: &'static SearchParams = Box::leak(Box::new(SearchParams::new(
        G::NAME,
        G::SEARCH_LABEL,
        G::SEARCH_DEFAULTS,
    )));
    tables.push(table);
    table
}

/// Whether every override of a game names a row of the table (a misspelt one would be ignored).
pub fn unknown_overrides<G: SearchHints>() -> Vec<&'static str> {
    G::SEARCH_DEFAULTS
        .iter()
        .filter(|(s, _)| !TEMPLATE.iter().any(|t| t.suffix.eq_ignore_ascii_case(s)))
        .map(|&(s, _)| s)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_the_use_rows_and_range_over_zero_and_one() {
        for spec in TEMPLATE {
            assert_eq!(
                spec.switch,
                spec.suffix.starts_with("Use "),
                "{}",
                spec.suffix
            );
            if spec.switch {
                assert_eq!(
                    (spec.min, spec.max, spec.step),
                    (0, 1, 1),
                    "{}",
                    spec.suffix
                );
            }
            assert!(
                (spec.min..=spec.max).contains(&spec.default),
                "{}",
                spec.suffix
            );
        }
    }
}
