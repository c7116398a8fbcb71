//! Time management: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the iteration), both measured from the start of `go`.
//!
//! With a clock: `available = time_left - overhead` (at least 1 ms);
//! `soft = available / movestogo + 3/4 increment` where `movestogo` defaults to 30 (at most 50);
//! `soft` is capped at half of `available` (or 80 % with one move to go), and
//! `hard = min(3 soft, 3/4 available)` (never below `soft`). This keeps a reserve however short
//! the clock (1 s + 10 ms games included). `movetime` gives `soft = hard = movetime - overhead`.
//! With both, the smaller applies.

use std::time::{Duration, Instant};

use super::limits::SearchLimits;

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
            let available = (time_left - overhead).max(1);
            let increment = limits.increment_ms.max(0);
            let mtg = i64::from(limits.movestogo.unwrap_or(30).clamp(1, 50));
            let cap = if mtg == 1 {
                available * 4 / 5
            } else {
                available / 2
            };
            let s = (available / mtg + increment * 3 / 4).min(cap).max(1);
            let h = (3 * s).min(available * 3 / 4).max(s);
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
