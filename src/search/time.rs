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

use std::time::{Duration, Instant};

use super::limits::SearchLimits;

/// Moves a sudden-death clock is planned for.
const SUDDEN_DEATH_MOVES: i64 = 40;

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

    /// Whether another iteration should not be started, given how long the last one took
    /// (the next one is expected to take about twice as long).
    pub fn stop_iterating(&self, last_iteration: Duration) -> bool {
        let elapsed = self.elapsed();
        self.soft.is_some_and(|s| elapsed >= s)
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
