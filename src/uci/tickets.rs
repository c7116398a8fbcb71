//! The rules that tie `stop` and `ponderhit` to the searches they were meant for, shared by the
//! reader (the session) and the search thread.
//!
//! Every `go` gets a number (its ticket). `stop` stops every search numbered up to the last `go`
//! read, so a stale `stop` (sent while idle, or after a search ended by itself) can never end a
//! later search; `ponderhit` works the same way; and each search prints its `bestmove` under the
//! same lock that marks it finished, so exactly one `bestmove` is printed per `go`.

use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{Condvar, Mutex};

use crate::search::SearchControl;

/// The counters behind the rules.
#[derive(Default)]
struct Counters {
    /// Number of the last `go` sent to the search thread.
    issued: u64,
    /// Searches numbered up to this one are to stop.
    stop_upto: u64,
    /// Searches numbered up to this one have had their `ponderhit`.
    ponderhit_upto: u64,
    /// Number of the search running now (0: none).
    running: u64,
    /// Number of the last search that has printed its `bestmove`.
    finished: u64,
    /// Table jobs (resize, clear, new game) sent to the search thread and not yet done.
    table_jobs: u64,
}

/// The ticket state and the control flags of the running search, shared by the session and the
/// search thread (in an `Arc`).
#[derive(Default)]
pub(crate) struct Tickets {
    counters: Mutex<Counters>,
    /// Signalled when a table job is done.
    table_done: Condvar,
    control: SearchControl,
    /// UCCI: the opponent offers a draw (`go draw`, `ponderhit draw`) to the running search.
    draw_offered: AtomicBool,
}

impl Tickets {
    /// Numbers a new `go` and returns its ticket.
    pub fn issue(&self) -> u64 {
        let mut c = self.counters.lock();
        c.issued += 1;
        c.issued
    }

    /// `stop`: stops every search issued so far (the running one at once, queued ones when they
    /// start). Returns whether no search was pending (every issued one had finished).
    pub fn stop(&self) -> bool {
        let mut c = self.counters.lock();
        let idle = c.finished == c.issued;
        c.stop_upto = c.issued;
        if c.running != 0 && c.running <= c.stop_upto {
            self.control.stop();
        }
        idle
    }

    /// `ponderhit` (UCCI `ponderhit draw` with `draw`): the searches issued so far stop
    /// pondering.
    pub fn ponderhit(&self, draw: bool) {
        let mut c = self.counters.lock();
        c.ponderhit_upto = c.issued;
        if c.running != 0 && c.running <= c.ponderhit_upto {
            if draw {
                self.draw_offered.store(true, Ordering::SeqCst);
            }
            self.control.ponderhit();
        }
    }

    /// The search thread starts search `ticket`: the flags are set from what came in for it
    /// while it waited (a `stop` or `ponderhit` already sent).
    pub fn begin(&self, ticket: u64, ponder: bool, draw_offered: bool) {
        let mut c = self.counters.lock();
        c.running = ticket;
        self.control
            .start(c.stop_upto >= ticket, ponder && c.ponderhit_upto < ticket);
        self.draw_offered.store(draw_offered, Ordering::SeqCst);
    }

    /// Search `ticket` is over: `print` writes its closing lines (`bestmove`) while the ticket
    /// lock is held, so that a `stop` sees either a running search or a finished one.
    pub fn end(&self, ticket: u64, print: impl FnOnce()) {
        let mut c = self.counters.lock();
        print();
        c.running = 0;
        c.finished = ticket;
    }

    /// A table job (allocating, clearing) is sent to the search thread.
    pub fn table_job_sent(&self) {
        self.counters.lock().table_jobs += 1;
    }

    /// The search thread has done a table job.
    pub fn table_job_done(&self) {
        let mut c = self.counters.lock();
        c.table_jobs = c.table_jobs.saturating_sub(1);
        self.table_done.notify_all();
    }

    /// `isready`: while no search runs, waits until the table jobs sent so far are done, so that
    /// the work of `setoption name Hash` or `ucinewgame` (seconds for a large table) is done
    /// before `readyok` and never on the clock of the next `go`. While a search runs, `readyok`
    /// must come at once, and this returns at once.
    pub fn wait_for_table_jobs(&self) {
        let mut c = self.counters.lock();
        while c.table_jobs > 0 && c.running == 0 && c.finished == c.issued {
            self.table_done.wait(&mut c);
        }
    }

    /// `quit` or end of input: the running search and every queued one stop (each still prints
    /// its `bestmove`).
    pub fn quit(&self) {
        let mut c = self.counters.lock();
        c.stop_upto = c.issued;
        self.control.stop();
    }

    /// Whether a draw was offered to the running search.
    pub fn draw_offered(&self) -> bool {
        self.draw_offered.load(Ordering::SeqCst)
    }

    /// The control flags the running search polls.
    pub fn control(&self) -> &SearchControl {
        &self.control
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_stop_never_ends_a_later_search() {
        let t = Tickets::default();
        assert!(t.stop(), "idle: nothing pending");
        let first = t.issue();
        t.begin(first, false, false);
        assert!(!t.control().is_stopped());
        assert!(!t.stop());
        assert!(t.control().is_stopped());
        t.end(first, || {});
        let second = t.issue();
        t.begin(second, false, false);
        assert!(!t.control().is_stopped(), "the old stop does not leak");
    }

    #[test]
    fn a_stop_sent_before_a_queued_search_starts_stops_it_at_once() {
        let t = Tickets::default();
        let a = t.issue();
        t.begin(a, false, false);
        let b = t.issue();
        t.stop();
        t.end(a, || {});
        t.begin(b, false, false);
        assert!(t.control().is_stopped());
    }

    #[test]
    fn isready_waits_for_table_jobs_unless_a_search_runs() {
        use std::sync::Arc;
        use std::time::Duration;
        let t = Arc::new(Tickets::default());
        t.table_job_sent();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let worker = {
            let (t, done) = (Arc::clone(&t), Arc::clone(&done));
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                done.store(true, Ordering::SeqCst);
                t.table_job_done();
            })
        };
        t.wait_for_table_jobs();
        assert!(
            done.load(Ordering::SeqCst),
            "readyok before the table was ready"
        );
        worker.join().unwrap();
        // With a search running, isready is answered at once even with table work queued.
        let ticket = t.issue();
        t.begin(ticket, false, false);
        t.table_job_sent();
        t.wait_for_table_jobs();
        t.table_job_done();
        t.end(ticket, || {});
        t.wait_for_table_jobs();
    }

    #[test]
    fn ponderhit_applies_to_issued_searches_only() {
        let t = Tickets::default();
        let a = t.issue();
        t.ponderhit(false);
        t.begin(a, true, false);
        assert!(!t.control().is_pondering(), "ponderhit came first");
        t.end(a, || {});
        let b = t.issue();
        t.begin(b, true, false);
        assert!(t.control().is_pondering());
        t.ponderhit(true);
        assert!(!t.control().is_pondering());
        assert!(t.draw_offered());
    }
}
