//! The front end: the UCI/UCCI protocol loop on standard input and output.
//!
//! - [`session`]: the reader side: parses each line with `sanqi-protocol`, answers `isready`,
//!   `stop`, `ponderhit`, `d`, options at once, and sends the rest as jobs;
//! - [`worker`]: the one long-lived search thread, which runs the jobs in order;
//! - [`tickets`]: the rules that tie `stop`/`ponderhit` to their search (one `bestmove` per `go`);
//! - [`report`]: search events and results as `info` and `bestmove` lines;
//! - [`options`]: the engine's own option table and settings (the games' setup options come from
//!   the game registry, the tunable weights from the games and the search);
//! - [`io`]: line input with a length cap, line output under a lock.
//!
//! The modules form a chain without cycles: `session` → `worker` → `report`, with `tickets`,
//! `options` and `io` as leaves.

pub mod io;
pub mod options;
mod report;
mod session;
mod tickets;
mod worker;

pub use io::Output;
pub use session::Session;

/// The engine's name as `id name` prints it.
pub const NAME: &str = concat!("sanqi ", env!("CARGO_PKG_VERSION"));
/// The authors as `id author` prints them.
pub const AUTHOR: &str = "the sanqi developers";

/// Runs the protocol loop on standard input and output.
pub fn run_stdio() {
    let session = Session::new(Output::stdout());
    let stdin = std::io::stdin();
    session.run(stdin.lock());
}
