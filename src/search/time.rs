//! Time management: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the iteration), both measured from the start of `go`.
//!
//! The constants below are the defaults of the `Search Time ...` options ([`PARAMS`], read into
//! a [`TimeRule`] when a search starts), so that SPSA can tune them.
//!
//! With a clock of `time` ms and `inc` ms per move, `available = time - overhead`:
//! - sudden death (no `movestogo`): the move is planned as if 40 moves were left, and a reserve of
//!   `min(available / 2, 3 inc)` is never planned for: `soft = (available - reserve) / 40 +
//!   0.6 inc`, at most a fifth of `available`;
//! - `movestogo n` (at most 50): `soft = (available - reserve) / n + inc / 2` with a reserve of
//!   `min(available / 4, 2 inc)` (none for the last move before the control), at most half of
//!   `available` (80 % for the last move);
//! - `hard = min(3 soft, 3/4 available)`, never below `soft`.
//!
//! A search stops after the iteration in which `soft` passes (or before one that would not end
//! before `hard`), so on average it spends about 1.2 times `soft`. Spending only part of the
//! increment keeps the clock from running down to the increment: at 10+0.1 the clock stays
//! above a second for a 120-move game, where the earlier rule (`available / 30 + 3/4 inc`) fell
//! to about 0.15 s and then played on the increment (docs/time-management.md).
//! `movetime` gives `soft = hard = movetime - overhead`. With both, the smaller applies.
//! Under `movetime` alone (without a Skill) the search uses all of it, as Stockfish does, with
//! one line or with MultiPV: it starts iterations until the hard limit cuts one off (the best
//! root move searched so far in that iteration counts where it improved on the last completed
//! one), since time left unused under `movetime` is lost. On a clock, and with a Skill (whose
//! choice needs completed iterations), an iteration that would not end before `hard` is not
//! started.
//!
//! On a clock (no `movetime`) the soft limit is scaled at the end of every iteration from depth
//! [`SCALE_FROM_DEPTH`] on by how the search went ([`TimeRule::soft_scale`]): a best move that stayed the
//! same for several iterations, a score that held or rose, and a best move that took most of
//! the root's nodes end the search earlier; a best move that just changed, a score that
//! dropped and nodes spread over several moves give it more time. The scale is kept within
//! [`MIN_SCALE`]..[`MAX_SCALE`] and the hard limit is never moved.

use std::time::{Duration, Instant};

use super::limits::SearchLimits;

/// The first completed depth after which the soft limit is scaled (shallower iterations say
/// little about the position).
pub const SCALE_FROM_DEPTH: u32 = 5;
/// The smallest scale of the soft limit.
pub const MIN_SCALE: f64 = 0.4;
/// The largest scale of the soft limit (the hard limit still caps the search).
pub const MAX_SCALE: f64 = 2.5;

crate::declare_params! {
    /// The time rule's constants (UCI spin options, `spsa`); every value in their ranges keeps
    /// the hard limit within the clock (the tests check the corners of the ranges).
    pub static PARAMS;
    /// Sudden death: the moves a clock is planned for.
    pub MOVES_LEFT = "Search Time Moves Left", 40, 15, 80, 3;
    /// Sudden death: the reserve never planned for, in percent of the increment (at most half
    /// of the clock).
    pub RESERVE = "Search Time Reserve", 300, 0, 600, 30;
    /// Sudden death: the share of the increment added to the soft limit, in percent.
    pub INCREMENT_SHARE = "Search Time Increment Share", 60, 20, 100, 5;
    /// Sudden death: the largest soft limit, in percent of the clock.
    pub SOFT_MAX = "Search Time Soft Max", 20, 8, 35, 2;
    /// The hard limit in percent of the soft limit.
    pub HARD_FACTOR = "Search Time Hard Factor", 300, 150, 500, 25;
    /// The largest hard limit, in percent of the clock.
    pub HARD_MAX = "Search Time Hard Max", 75, 50, 85, 3;
    /// Best-move stability: the factor when the best move just changed, in percent.
    pub STABILITY_BASE = "Search Time Stability Base", 140, 100, 200, 5;
    /// Best-move stability: the factor's fall per stable iteration, in percent.
    pub STABILITY_STEP = "Search Time Stability Step", 15, 0, 40, 2;
    /// Best-move stability: the smallest factor, in percent.
    pub STABILITY_MIN = "Search Time Stability Min", 75, 40, 100, 3;
    /// Score drop: percent more time per 100 units the score fell (from -15 to 50 units).
    pub SCORE_FACTOR = "Search Time Score Factor", 100, 0, 300, 10;
    /// Node fraction `f` of the best move: the factor is `(base - f) x scale`, `base` in
    /// percent.
    pub NODE_BASE = "Search Time Node Base", 150, 110, 250, 5;
    /// Node fraction: the `scale` of that factor, in percent.
    pub NODE_SCALE = "Search Time Node Scale", 130, 50, 250, 8;
}

/// The time rule's constants, read from [`PARAMS`] once per search (or given whole by a test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRule {
    /// [`MOVES_LEFT`].
    pub moves_left: i64,
    /// [`RESERVE`].
    pub reserve: i64,
    /// [`INCREMENT_SHARE`].
    pub increment_share: i64,
    /// [`SOFT_MAX`].
    pub soft_max: i64,
    /// [`HARD_FACTOR`].
    pub hard_factor: i64,
    /// [`HARD_MAX`].
    pub hard_max: i64,
    /// [`STABILITY_BASE`].
    pub stability_base: i64,
    /// [`STABILITY_STEP`].
    pub stability_step: i64,
    /// [`STABILITY_MIN`].
    pub stability_min: i64,
    /// [`SCORE_FACTOR`].
    pub score_factor: i64,
    /// [`NODE_BASE`].
    pub node_base: i64,
    /// [`NODE_SCALE`].
    pub node_scale: i64,
}

impl TimeRule {
    /// The rule from the parameters' `value` of each (in [`PARAMS`] order).
    fn from_values(value: impl Fn(&crate::tune::Param) -> i32) -> TimeRule {
        let v = |p: &crate::tune::Param| i64::from(value(p));
        TimeRule {
            moves_left: v(&MOVES_LEFT),
            reserve: v(&RESERVE),
            increment_share: v(&INCREMENT_SHARE),
            soft_max: v(&SOFT_MAX),
            hard_factor: v(&HARD_FACTOR),
            hard_max: v(&HARD_MAX),
            stability_base: v(&STABILITY_BASE),
            stability_step: v(&STABILITY_STEP),
            stability_min: v(&STABILITY_MIN),
            score_factor: v(&SCORE_FACTOR),
            node_base: v(&NODE_BASE),
            node_scale: v(&NODE_SCALE),
        }
    }

    /// The rule of the options as they are set now.
    pub fn current() -> TimeRule {
        TimeRule::from_values(|p| p.get())
    }

    /// The rule at the options' defaults.
    pub fn defaults() -> TimeRule {
        TimeRule::from_values(|p| p.default)
    }

    /// The factor on the soft limit for `trend`, the product of three (in the manner of
    /// Stockfish and Ethereal), at the defaults:
    /// - best-move stability: `max(0.75, 1.4 - 0.15 s)` for `s` stable iterations (1.4 when the
    ///   move just changed, 0.8 after four, 0.75 from five on);
    /// - score drop: `1 + drop / 100`, the drop clamped to -15..=50 (0.85 to 1.5);
    /// - node fraction `f` of the best move: `(1.5 - f) * 1.3` (0.65 when it took every node,
    ///   1.3 at half of them);
    ///
    /// clamped to [`MIN_SCALE`]..=[`MAX_SCALE`]. A pure function: the same trend gives the same
    /// scale.
    pub fn soft_scale(&self, trend: &Trend) -> f64 {
        let pct = |v: i64| v as f64 / 100.0;
        let stability = (pct(self.stability_base)
            - pct(self.stability_step) * f64::from(trend.stable_iterations.min(10)))
        .max(pct(self.stability_min));
        let score =
            1.0 + pct(self.score_factor) * f64::from(trend.score_drop.clamp(-15, 50)) / 100.0;
        let fraction = if trend.root_nodes == 0 {
            0.5
        } else {
            (trend.best_move_nodes as f64 / trend.root_nodes as f64).clamp(0.0, 1.0)
        };
        let nodes = (pct(self.node_base) - fraction) * pct(self.node_scale);
        (stability * score * nodes).clamp(MIN_SCALE, MAX_SCALE)
    }

    /// The soft and hard limits in ms for a clock of `time_left` ms with `increment` ms per
    /// move (see the module documentation).
    pub fn clock_limits(
        &self,
        time_left: i64,
        increment: i64,
        movestogo: Option<u32>,
        overhead: i64,
    ) -> (i64, i64) {
        let available = (time_left - overhead).max(1);
        let soft = match movestogo {
            Some(n) => {
                let n = i64::from(n.clamp(1, 50));
                if n == 1 {
                    available * 4 / 5
                } else {
                    let reserve = (available / 4).min(2 * increment);
                    ((available - reserve) / n + increment / 2).min(available / 2)
                }
            }
            None => {
                let reserve = (available / 2).min(self.reserve * increment / 100);
                ((available - reserve) / self.moves_left.max(1)
                    + increment * self.increment_share / 100)
                    .min(available * self.soft_max / 100)
            }
        }
        .max(1);
        let hard = (self.hard_factor * soft / 100)
            .min(available * self.hard_max.min(100) / 100)
            .max(soft);
        (soft, hard)
    }
}

/// What the main search knows at the end of an iteration, for scaling the soft limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trend {
    /// Iterations in a row that ended with the same best move as the one before (0: it just
    /// changed).
    pub stable_iterations: u32,
    /// How far the score fell (centipawn units of the search, negative: it rose) against the
    /// score two iterations back (one when there is no earlier one).
    pub score_drop: i32,
    /// Nodes spent below the best root move, over the whole search.
    pub best_move_nodes: u64,
    /// Nodes spent below all root moves, over the whole search.
    pub root_nodes: u64,
}

/// The time limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft limit comes from a clock (and not `movetime`), so it may be scaled.
    scalable: bool,
    /// `movetime` without a clock: iterations go on until the hard limit.
    fixed: bool,
    /// The time rule's constants as they were when the search started.
    rule: TimeRule,
}

impl TimeManager {
    /// Limits for `limits`, counted from `start` (the start of `go`).
    pub fn new(limits: &SearchLimits, start: Instant) -> Self {
        Self::with_rule(limits, start, TimeRule::current())
    }

    /// Limits for `limits` under the time rule `rule`.
    pub fn with_rule(limits: &SearchLimits, start: Instant, rule: TimeRule) -> Self {
        let overhead = limits.move_overhead_ms as i64;
        let mut soft: Option<i64> = None;
        let mut hard: Option<i64> = None;
        if let Some(time_left) = limits.time_left_ms {
            let (s, h) = rule.clock_limits(
                time_left,
                limits.increment_ms.max(0),
                limits.movestogo,
                overhead,
            );
            soft = Some(s);
            hard = Some(h);
        }
        if let Some(movetime) = limits.movetime_ms {
            let t = (movetime as i64 - overhead).max(1);
            soft = Some(soft.map_or(t, |s| s.min(t)));
            hard = Some(hard.map_or(t, |h| h.min(t)));
        }
        let ms = |v: i64| Duration::from_millis(v.max(1) as u64);
        TimeManager {
            start,
            soft: soft.map(ms),
            hard: hard.map(ms),
            scalable: limits.time_left_ms.is_some() && limits.movetime_ms.is_none(),
            fixed: limits.time_left_ms.is_none() && limits.movetime_ms.is_some(),
            rule,
        }
    }

    /// The factor on the soft limit for `trend` under this search's rule
    /// ([`TimeRule::soft_scale`]).
    pub fn soft_scale(&self, trend: &Trend) -> f64 {
        self.rule.soft_scale(trend)
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The soft limit, if the search is timed.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard limit, if the search is timed.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Whether the running iteration must be aborted now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// The soft limit after scaling by `scale` ([`TimeRule::soft_scale`]; ignored under `movetime`),
    /// never past the hard limit.
    pub fn scaled_soft(&self, scale: f64) -> Option<Duration> {
        let soft = self.soft?;
        let scaled = if self.scalable && scale.is_finite() {
            soft.mul_f64(scale.clamp(MIN_SCALE, MAX_SCALE))
        } else {
            soft
        };
        Some(self.hard.map_or(scaled, |h| scaled.min(h)))
    }

    /// Whether another iteration should not be started, given how long the last one took
    /// (the next one is expected to take about twice as long) and the scale of the soft limit
    /// (1.0: unscaled). Under `movetime` alone, where the last iteration may be cut off
    /// (`cut_off_ok`: no Skill, whose choice needs completed iterations), only once the hard
    /// limit has passed.
    pub fn stop_iterating(&self, last_iteration: Duration, scale: f64, cut_off_ok: bool) -> bool {
        self.stop_iterating_at(self.elapsed(), last_iteration, scale, cut_off_ok)
    }

    /// [`Self::stop_iterating`] at `elapsed` since the start.
    pub fn stop_iterating_at(
        &self,
        elapsed: Duration,
        last_iteration: Duration,
        scale: f64,
        cut_off_ok: bool,
    ) -> bool {
        if self.fixed && cut_off_ok {
            return self.hard.is_some_and(|h| elapsed >= h);
        }
        self.scaled_soft(scale).is_some_and(|s| elapsed >= s)
            || self.hard.is_some_and(|h| elapsed + last_iteration * 2 >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` moves on a clock of `base` + `inc` ms, each move spending 1.2 times the
    /// soft limit (what the search spends on average, see the module documentation) capped by
    /// the hard limit, plus 3 ms of lag; returns the clock after each move (None on a loss).
    fn clock_after_each_move(
        base: i64,
        inc: i64,
        movestogo: Option<u32>,
        moves: u32,
    ) -> Option<Vec<i64>> {
        let mut time = base;
        let mut left = Vec::new();
        for m in 0..moves {
            let to_go = movestogo.map(|n| n - m % n);
            let (soft, hard) = TimeRule::defaults().clock_limits(time, inc, to_go, 10);
            time -= (soft * 6 / 5).min(hard) + 3;
            if time < 0 {
                return None;
            }
            time += inc;
            if let Some(n) = movestogo {
                if (m + 1) % n == 0 {
                    time += base;
                }
            }
            left.push(time);
        }
        Some(left)
    }

    #[test]
    fn the_clock_keeps_a_reserve_of_several_increments_over_a_long_game() {
        // 10+0.1, 1+0.01 and 60+0.6: after 80 moves at least 10 increments are left, after
        // 120 at least 8 (the earlier rule kept about 4 and 1.5).
        for (base, inc) in [(10_000, 100), (1_000, 10), (60_000, 600)] {
            let left = clock_after_each_move(base, inc, None, 120).expect("no time loss");
            assert!(
                left[79] >= 10 * inc,
                "{base}+{inc}: {} ms after 80 moves",
                left[79]
            );
            assert!(
                left[119] >= 8 * inc,
                "{base}+{inc}: {} ms after 120 moves",
                left[119]
            );
        }
    }

    #[test]
    fn sudden_death_and_movestogo_never_lose_on_time() {
        for (base, inc, mtg) in [
            (10_000, 0, None),
            (60_000, 0, None),
            (60_000, 0, Some(40)),
            (1_000, 0, Some(10)),
        ] {
            let left = clock_after_each_move(base, inc, mtg, 150).expect("no time loss");
            assert!(left.iter().all(|&t| t > 0), "{base}+{inc} mtg {mtg:?}");
        }
        // A clock already below the overhead still gives a positive limit.
        assert_eq!(TimeRule::defaults().clock_limits(5, 0, None, 10), (1, 1));
        let (soft, hard) = TimeRule::defaults().clock_limits(60_000, 0, Some(1), 10);
        assert!(soft > 40_000 && hard >= soft && hard <= 48_000);
    }

    /// The rule before its constants became options, written out as the reference the
    /// defaults must reproduce.
    fn reference_limits(
        time_left: i64,
        inc: i64,
        movestogo: Option<u32>,
        overhead: i64,
    ) -> (i64, i64) {
        let available = (time_left - overhead).max(1);
        let soft = match movestogo {
            Some(1) => available * 4 / 5,
            Some(n) => {
                let n = i64::from(n.min(50));
                let reserve = (available / 4).min(2 * inc);
                ((available - reserve) / n + inc / 2).min(available / 2)
            }
            None => {
                let reserve = (available / 2).min(3 * inc);
                ((available - reserve) / 40 + inc * 3 / 5).min(available / 5)
            }
        }
        .max(1);
        (soft, (3 * soft).min(available * 3 / 4).max(soft))
    }

    fn reference_scale(t: &Trend) -> f64 {
        let stability = (1.4 - 0.15 * f64::from(t.stable_iterations.min(10))).max(0.75);
        let score = 1.0 + f64::from(t.score_drop.clamp(-15, 50)) / 100.0;
        let f = if t.root_nodes == 0 {
            0.5
        } else {
            t.best_move_nodes as f64 / t.root_nodes as f64
        };
        (stability * score * (1.5 - f) * 1.3).clamp(MIN_SCALE, MAX_SCALE)
    }

    #[test]
    fn the_defaults_are_the_rule_of_the_documentation() {
        let rule = TimeRule::defaults();
        for overhead in [0, 10, 100] {
            for time in (1..30_000).step_by(97) {
                for inc in [0, 10, 100, 1_000] {
                    for mtg in [None, Some(1), Some(2), Some(17), Some(40), Some(90)] {
                        assert_eq!(
                            rule.clock_limits(time, inc, mtg, overhead),
                            reference_limits(time, inc, mtg, overhead),
                            "{time}+{inc} mtg {mtg:?} overhead {overhead}"
                        );
                    }
                }
            }
        }
        for stable in 0..12 {
            for drop in [-100, -15, -3, 0, 7, 50, 300] {
                for best in [0, 1, 250, 500, 999, 1000] {
                    let t = trend(stable, drop, best);
                    let (got, want) = (rule.soft_scale(&t), reference_scale(&t));
                    assert!((got - want).abs() < 1e-9, "{t:?}: {got} {want}");
                }
            }
        }
    }

    /// Every rule with each constant at the low or the high end of its range (all 4,096).
    fn corner_rules() -> impl Iterator<Item = TimeRule> {
        (0..1u32 << PARAMS.len()).map(|bits| {
            TimeRule::from_values(|p| {
                let i = PARAMS
                    .iter()
                    .position(|q| std::ptr::eq(*q, p))
                    .expect("a parameter of the list");
                if bits >> i & 1 == 0 {
                    p.min
                } else {
                    p.max
                }
            })
        })
    }

    #[test]
    fn every_rule_within_the_ranges_keeps_the_hard_limit_on_the_clock() {
        // What SPSA may try: the corners of the ranges (each constant acts monotonically).
        for rule in corner_rules() {
            for overhead in [0, 10, 100] {
                for time in (overhead + 1..overhead + 3_000).step_by(211) {
                    for inc in [0, 10, 100] {
                        for mtg in [None, Some(1), Some(30)] {
                            let (soft, hard) = rule.clock_limits(time, inc, mtg, overhead);
                            assert!(
                                soft >= 1 && soft <= hard && hard + overhead <= time,
                                "{rule:?} {time}+{inc} {overhead}"
                            );
                        }
                    }
                }
            }
            // A whole game at 1+0.01 with the largest scale on every move and 3 ms of lag keeps
            // at least half the Move Overhead of 10 ms on the clock (the defaults keep all of
            // it: the test above).
            let mut time = 1_000;
            for _ in 0..150 {
                let (soft, hard) = rule.clock_limits(time, 10, None, 10);
                time -= ((soft as f64 * MAX_SCALE) as i64 * 6 / 5).min(hard) + 3;
                assert!(time > 5, "{rule:?}: {time} ms left");
                time += 10;
            }
            for stable in [0, 3, 10] {
                for drop in [-15, 0, 50] {
                    let s = rule.soft_scale(&trend(stable, drop, 500));
                    assert!((MIN_SCALE..=MAX_SCALE).contains(&s), "{rule:?}: {s}");
                }
            }
        }
    }

    #[test]
    fn each_constant_moves_the_limits_its_way() {
        let base = TimeRule::defaults();
        let limits = |r: TimeRule| r.clock_limits(10_000, 100, None, 10);
        let (soft, hard) = limits(base);
        let more_moves = TimeRule {
            moves_left: 60,
            ..base
        };
        assert!(limits(more_moves).0 < soft);
        let more_reserve = TimeRule {
            reserve: 600,
            ..base
        };
        assert!(limits(more_reserve).0 < soft);
        let more_increment = TimeRule {
            increment_share: 100,
            ..base
        };
        assert!(limits(more_increment).0 > soft);
        let low_cap = TimeRule {
            soft_max: 1,
            ..base
        };
        assert_eq!(limits(low_cap).0, 99);
        let harder = TimeRule {
            hard_factor: 500,
            ..base
        };
        assert!(limits(harder).1 > hard);
        let t = trend(2, 10, 600);
        let scale = base.soft_scale(&t);
        for (rule, more) in [
            (
                TimeRule {
                    stability_base: 160,
                    ..base
                },
                true,
            ),
            (
                TimeRule {
                    stability_step: 30,
                    ..base
                },
                false,
            ),
            (
                TimeRule {
                    score_factor: 200,
                    ..base
                },
                true,
            ),
            (
                TimeRule {
                    node_base: 170,
                    ..base
                },
                true,
            ),
            (
                TimeRule {
                    node_scale: 100,
                    ..base
                },
                false,
            ),
        ] {
            assert_eq!(rule.soft_scale(&t) > scale, more, "{rule:?}");
        }
        let floor = TimeRule {
            stability_min: 95,
            ..base
        };
        assert!(floor.soft_scale(&trend(10, 0, 500)) > base.soft_scale(&trend(10, 0, 500)));
    }

    /// A trend with the best move stable for `stable` iterations, the score `drop` lower and
    /// `best` of 1000 root nodes below the best move.
    fn trend(stable: u32, drop: i32, best: u64) -> Trend {
        Trend {
            stable_iterations: stable,
            score_drop: drop,
            best_move_nodes: best,
            root_nodes: 1000,
        }
    }

    fn clock(time: i64, inc: i64, overhead: u64) -> TimeManager {
        let limits = SearchLimits {
            time_left_ms: Some(time),
            increment_ms: inc,
            move_overhead_ms: overhead,
            ..SearchLimits::default()
        };
        TimeManager::new(&limits, Instant::now())
    }

    #[test]
    fn a_stable_best_move_ends_the_search_earlier_than_a_changing_one() {
        let stable = TimeRule::defaults().soft_scale(&trend(6, 0, 700));
        let changed = TimeRule::defaults().soft_scale(&trend(0, 0, 700));
        assert!(stable < 0.9, "{stable}");
        assert!(changed > 1.3, "{changed}");
        // The decision at one elapsed time: the stable search stops, the changing one goes on.
        let tm = clock(8_000, 80, 10);
        let soft = tm.soft().expect("a clock gives a soft limit");
        let elapsed = soft;
        let last = Duration::from_millis(1);
        assert!(tm.stop_iterating_at(elapsed, last, stable, true));
        assert!(!tm.stop_iterating_at(elapsed, last, changed, true));
        // More stable iterations never give more time, down to the floor.
        let scales: Vec<f64> = (0..12)
            .map(|s| TimeRule::defaults().soft_scale(&trend(s, 0, 500)))
            .collect();
        assert!(scales.windows(2).all(|w| w[1] <= w[0]), "{scales:?}");
        assert_eq!(scales[5], scales[11]);
    }

    #[test]
    fn a_score_drop_and_spread_nodes_give_more_time() {
        let base = TimeRule::defaults().soft_scale(&trend(3, 0, 500));
        assert!(TimeRule::defaults().soft_scale(&trend(3, 30, 500)) > base);
        assert!(TimeRule::defaults().soft_scale(&trend(3, -30, 500)) < base);
        // The drop counts up to 50 units, a rise up to 15.
        assert_eq!(
            TimeRule::defaults().soft_scale(&trend(3, 50, 500)),
            TimeRule::defaults().soft_scale(&trend(3, 400, 500))
        );
        assert_eq!(
            TimeRule::defaults().soft_scale(&trend(3, -15, 500)),
            TimeRule::defaults().soft_scale(&trend(3, -400, 500))
        );
        // The more nodes the best move took, the earlier the search ends.
        let by_fraction: Vec<f64> = [100, 300, 500, 700, 900, 1000]
            .iter()
            .map(|&b| TimeRule::defaults().soft_scale(&trend(3, 0, b)))
            .collect();
        assert!(
            by_fraction.windows(2).all(|w| w[1] < w[0]),
            "{by_fraction:?}"
        );
        // No nodes counted yet: the middle of the range, not a division by zero.
        let none = Trend {
            root_nodes: 0,
            best_move_nodes: 0,
            ..trend(3, 0, 0)
        };
        assert_eq!(
            TimeRule::defaults().soft_scale(&none),
            TimeRule::defaults().soft_scale(&trend(3, 0, 500))
        );
    }

    #[test]
    fn the_scale_is_bounded_and_the_same_inputs_give_the_same_decision() {
        for stable in [0, 1, 3, 20] {
            for drop in [-1000, -10, 0, 10, 1000] {
                for best in [0, 1, 500, 1000] {
                    let t = trend(stable, drop, best);
                    let s = TimeRule::defaults().soft_scale(&t);
                    assert!((MIN_SCALE..=MAX_SCALE).contains(&s), "{t:?}: {s}");
                    assert_eq!(s.to_bits(), TimeRule::defaults().soft_scale(&t).to_bits());
                }
            }
        }
        let tm = clock(10_000, 100, 10);
        for ms in (0..2_000).step_by(7) {
            let elapsed = Duration::from_millis(ms);
            let last = Duration::from_millis(ms / 3);
            for scale in [0.5, 1.0, 1.7] {
                assert_eq!(
                    tm.stop_iterating_at(elapsed, last, scale, true),
                    tm.stop_iterating_at(elapsed, last, scale, true)
                );
            }
        }
    }

    #[test]
    fn the_scaled_soft_limit_never_passes_the_hard_limit_and_movetime_is_not_scaled() {
        for (time, inc) in [(1_000, 10), (8_000, 80), (60_000, 0), (100, 0)] {
            let tm = clock(time, inc, 10);
            let hard = tm.hard().expect("a clock gives a hard limit");
            for scale in [0.0, 0.4, 1.0, 2.5, 100.0, f64::NAN, f64::INFINITY] {
                let s = tm.scaled_soft(scale).expect("a clock gives a soft limit");
                assert!(s <= hard, "{time}+{inc} scale {scale}");
            }
            // Past the hard limit every scale stops.
            assert!(tm.stop_iterating_at(hard, Duration::ZERO, MAX_SCALE, true));
        }
        let movetime = SearchLimits {
            movetime_ms: Some(500),
            move_overhead_ms: 10,
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&movetime, Instant::now());
        for scale in [0.4, 1.0, 2.5] {
            assert_eq!(tm.scaled_soft(scale), Some(Duration::from_millis(490)));
        }
        // Under movetime alone (no Skill), another iteration starts whatever the last one
        // took, until the hard limit.
        let ms = Duration::from_millis;
        assert!(!tm.stop_iterating_at(ms(480), ms(200), 1.0, true));
        assert!(!tm.stop_iterating_at(ms(100), ms(400), 1.0, true));
        assert!(tm.stop_iterating_at(ms(490), Duration::ZERO, 1.0, true));
        // With a Skill iterations are held back as on a clock.
        assert!(tm.stop_iterating_at(ms(100), ms(200), 1.0, false));
        assert!(!tm.stop_iterating_at(ms(100), ms(100), 1.0, false));
        // A clock with movetime: movetime rules, unscaled, and an iteration that would not end
        // before the hard limit is not started (the time stays on the clock).
        let both = SearchLimits {
            time_left_ms: Some(60_000),
            ..movetime
        };
        let tm = TimeManager::new(&both, Instant::now());
        assert_eq!(tm.scaled_soft(0.4), Some(Duration::from_millis(490)));
        assert!(tm.stop_iterating_at(ms(100), ms(200), 1.0, true));
        assert!(!tm.stop_iterating_at(ms(100), ms(100), 1.0, true));
        // Untimed searches (depth, nodes, infinite) have no limit to scale.
        let tm = TimeManager::new(&SearchLimits::default(), Instant::now());
        assert_eq!(tm.scaled_soft(2.0), None);
        assert!(!tm.stop_iterating_at(Duration::from_secs(3600), Duration::ZERO, 0.4, true));
    }

    /// Plays `moves` moves on `base` + `inc` ms with `overhead` ms of Move Overhead, each move
    /// spending 1.2 times the soft limit scaled by `scale(move)`, capped by the hard limit,
    /// plus `lag` ms; returns the lowest clock seen after a move (None on a loss).
    fn lowest_clock_with_scaling(
        base: i64,
        inc: i64,
        overhead: i64,
        lag: i64,
        moves: u32,
        scale: impl Fn(u32) -> f64,
    ) -> Option<i64> {
        let mut time = base;
        let mut lowest = base;
        for m in 0..moves {
            let (soft, hard) = TimeRule::defaults().clock_limits(time, inc, None, overhead);
            let scaled = (soft as f64 * scale(m).clamp(MIN_SCALE, MAX_SCALE)) as i64;
            time -= (scaled * 6 / 5).min(hard) + lag;
            if time < 0 {
                return None;
            }
            lowest = lowest.min(time);
            time += inc;
        }
        Some(lowest)
    }

    #[test]
    fn scaling_never_loses_on_time_at_1_plus_0_01_under_any_move_overhead() {
        // The largest scale on every move, a scale swinging between the extremes, and the
        // smallest, with a lag of up to 9 ms a move (an increment of 10 ms cannot pay for more).
        for overhead in [10, 30, 100] {
            for lag in [1, 5, 9] {
                for scale in [
                    (|_| MAX_SCALE) as fn(u32) -> f64,
                    |m| if m % 2 == 0 { MAX_SCALE } else { MIN_SCALE },
                    |_| MIN_SCALE,
                ] {
                    let lowest = lowest_clock_with_scaling(1_000, 10, overhead, lag, 200, scale);
                    assert!(
                        lowest.is_some_and(|t| t >= 0),
                        "1+0.01, overhead {overhead}, lag {lag}: {lowest:?}"
                    );
                }
            }
        }
        // On any one move, whatever the scale, the search ends by the hard limit, and the hard
        // limit leaves the Move Overhead on the clock: a lag up to the overhead never flags.
        for overhead in [0, 10, 30, 100, 1_000] {
            for time in (overhead + 1..overhead + 5_000).step_by(13) {
                for inc in [0, 10, 100] {
                    let (soft, hard) = TimeRule::defaults().clock_limits(time, inc, None, overhead);
                    assert!(
                        soft <= hard && hard + overhead <= time,
                        "{time}+{inc} {overhead}"
                    );
                }
            }
        }
        // At the usual overhead and lag, even the largest scale on every move (the search then
        // spends about the hard limit each time) keeps more than the Move Overhead on the clock
        // for 120 moves at 1+0.01, 8+0.08 and 10+0.1.
        for (base, inc) in [(1_000, 10), (8_000, 80), (10_000, 100)] {
            let lowest = lowest_clock_with_scaling(base, inc, 10, 3, 120, |_| MAX_SCALE);
            assert!(lowest.is_some_and(|t| t > 10), "{base}+{inc}: {lowest:?}");
        }
    }
}
