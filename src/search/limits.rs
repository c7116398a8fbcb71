//! What the caller asks of one search: limits from `go`, options, and the shared control flags.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The limits of one `go` command. Every field is optional; with none set the search runs to
/// the maximum depth (or until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Stop after completing this depth (`go depth`). Depth 0 is searched as depth 1.
    pub depth: Option<u32>,
    /// Stop after this many nodes (`go nodes`); exact with one thread.
    pub nodes: Option<u64>,
    /// Think exactly this long, minus the move overhead (`go movetime`).
    pub movetime_ms: Option<u64>,
    /// Clock of the side to move (`wtime`/`btime`, UCCI `time`).
    pub time_left_ms: Option<i64>,
    /// Increment of the side to move per move.
    pub increment_ms: i64,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Stop as soon as a mate in at most this many moves is found (`go mate`).
    pub mate: Option<u32>,
    /// `go infinite`: never return before `stop`.
    pub infinite: bool,
    /// Time kept back per move for the GUI and the pipes (`Move Overhead`).
    pub move_overhead_ms: u64,
    /// When the `go` command was read: the clock limits count from here, so that time spent
    /// before the search starts (a queued job) is not spent twice. `None`: from the search's start.
    pub received: Option<std::time::Instant>,
}

/// Options of the search that come from engine options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Worker threads (Lazy SMP); 0 is taken as 1.
    pub threads: usize,
    /// Number of best root moves reported per iteration; 0 is taken as 1.
    pub multipv: usize,
    /// Play weaker (`Skill Level`, `UCI_LimitStrength`); `None` is full strength.
    pub skill: Option<super::skill::Skill>,
    /// More than two players: the opponents seen playing their policy move in the game so far
    /// (bit per seat) and the rule each plays by ([`super::multiplayer::policy_players`]), for
    /// the hybrid opponent model;
    /// `None`: unknown.
    pub policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            skill: None,
            policy_players: None,
        }
    }
}

/// Flags the protocol thread shares with a running search: a handle, whose clones share the
/// same flags (the search threads keep a clone).
///
/// The search only reads them. The caller sets `ponder` before `go ponder`, clears `stop` before
/// every `go` ([`SearchControl::reset`]), sets `stop` on `stop`, and clears `ponder` on
/// `ponderhit`. The flags are private: every change goes through these methods.
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    flags: Arc<ControlFlags>,
}

/// The flags behind a [`SearchControl`].
#[derive(Debug, Default)]
struct ControlFlags {
    /// Set to end the search as soon as possible.
    stop: AtomicBool,
    /// While set, the time limits do not apply and the search does not return by itself.
    ponder: AtomicBool,
}

impl SearchControl {
    /// Both flags clear.
    pub fn new() -> Self {
        SearchControl::default()
    }

    /// Prepares the flags for a new `go` (`ponder` for `go ponder`).
    pub fn reset(&self, ponder: bool) {
        self.start(false, ponder);
    }

    /// Sets both flags for a new `go`: `stopped` when a `stop` for it came in before it
    /// started, `ponder` for `go ponder` whose `ponderhit` has not come yet.
    pub fn start(&self, stopped: bool, ponder: bool) {
        self.flags.stop.store(stopped, Ordering::SeqCst);
        self.flags.ponder.store(ponder, Ordering::SeqCst);
    }

    /// Asks the running search to stop (`stop`).
    pub fn stop(&self) {
        self.flags.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move (`ponderhit`): normal limits apply from now on,
    /// with the clock counted from the start of `go`.
    pub fn ponderhit(&self) {
        self.flags.ponder.store(false, Ordering::SeqCst);
    }

    /// Whether `stop` was asked.
    pub fn is_stopped(&self) -> bool {
        self.flags.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is pondering.
    pub fn is_pondering(&self) -> bool {
        self.flags.ponder.load(Ordering::Relaxed)
    }
}
