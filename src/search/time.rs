//! Time management: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the iteration), both measured from the start of `go`.
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
//! to about 0.15 s and then played on the increment (README, Time management).
//! `movetime` gives `soft = hard = movetime - overhead`. With both, the smaller applies.
//!
//! On a clock (no `movetime`) the soft limit is scaled at the end of every iteration from depth
//! [`SCALE_FROM_DEPTH`] on by how the search went ([`soft_scale`]): a best move that stayed the
//! same for several iterations, a score that held or rose, and a best move that took most of
//! the root's nodes end the search earlier; a best move that just changed, a score that
//! dropped and nodes spread over several moves give it more time. The scale is kept within
//! [`MIN_SCALE`]..[`MAX_SCALE`] and the hard limit is never moved.

use std::time::{Duration, Instant};

use super::limits::SearchLimits;

/// Moves a sudden-death clock is planned for.
const SUDDEN_DEATH_MOVES: i64 = 40;

/// The first completed depth after which the soft limit is scaled (shallower iterations say
/// little about the position).
pub const SCALE_FROM_DEPTH: u32 = 5;
/// The smallest scale of the soft limit.
pub const MIN_SCALE: f64 = 0.4;
/// The largest scale of the soft limit (the hard limit still caps the search).
pub const MAX_SCALE: f64 = 2.5;

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

/// The factor on the soft limit for `trend`, the product of three (in the manner of Stockfish
/// and Ethereal):
/// - best-move stability: `max(0.75, 1.4 - 0.15 s)` for `s` stable iterations (1.4 when the
///   move just changed, 0.8 after four, 0.75 from five on);
/// - score drop: `1 + drop / 100`, the drop clamped to -15..=50 (0.85 to 1.5);
/// - node fraction `f` of the best move: `(1.5 - f) * 1.3` (0.65 when it took every node,
///   1.3 at half of them);
///
/// clamped to [`MIN_SCALE`]..=[`MAX_SCALE`]. A pure function: the same trend gives the same
/// scale.
pub fn soft_scale(trend: &Trend) -> f64 {
    let stability = (1.4 - 0.15 * f64::from(trend.stable_iterations.min(10))).max(0.75);
    let score = 1.0 + f64::from(trend.score_drop.clamp(-15, 50)) / 100.0;
    let fraction = if trend.root_nodes == 0 {
        0.5
    } else {
        (trend.best_move_nodes as f64 / trend.root_nodes as f64).clamp(0.0, 1.0)
    };
    let nodes = (1.5 - fraction) * 1.3;
    (stability * score * nodes).clamp(MIN_SCALE, MAX_SCALE)
}

/// The soft and hard limits in ms for a clock of `time_left` ms with `increment` ms per move
/// (see the module documentation).
pub fn clock_limits(
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
            let reserve = (available / 2).min(3 * increment);
            ((available - reserve) / SUDDEN_DEATH_MOVES + increment * 3 / 5).min(available / 5)
        }
    }
    .max(1);
    let hard = (3 * soft).min(available * 3 / 4).max(soft);
    (soft, hard)
}

/// The time limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft limit comes from a clock (and not `movetime`), so it may be scaled.
    scalable: bool,
}

impl TimeManager {
    /// Limits for `limits`, counted from `start` (the start of `go`).
    pub fn new(limits: &SearchLimits, start: Instant) -> Self {
        let overhead = limits.move_overhead_ms as i64;
        let mut soft: Option<i64> = None;
        let mut hard: Option<i64> = None;
        if let Some(time_left) = limits.time_left_ms {
            let (s, h) = clock_limits(
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
        }
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

    /// The soft limit after scaling by `scale` ([`soft_scale`]; ignored under `movetime`),
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
    /// (1.0: unscaled).
    pub fn stop_iterating(&self, last_iteration: Duration, scale: f64) -> bool {
        self.stop_iterating_at(self.elapsed(), last_iteration, scale)
    }

    /// [`Self::stop_iterating`] at `elapsed` since the start.
    pub fn stop_iterating_at(
        &self,
        elapsed: Duration,
        last_iteration: Duration,
        scale: f64,
    ) -> bool {
        self.scaled_soft(scale).is_some_and(|s| elapsed >= s)
            || self.hard.is_some_and(|h| elapsed + last_iteration * 2 >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::clock_limits;

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
            let (soft, hard) = clock_limits(time, inc, to_go, 10);
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
        assert_eq!(clock_limits(5, 0, None, 10), (1, 1));
        let (soft, hard) = clock_limits(60_000, 0, Some(1), 10);
        assert!(soft > 40_000 && hard >= soft && hard <= 48_000);
    }
}
