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

use crate::game::GameKind;

pub use io::Output;
pub use session::Session;

/// The engine's name as `id name` prints it.
pub const NAME: &str = concat!("sanqi ", env!("CARGO_PKG_VERSION"));
/// The authors as `id author` prints them.
pub const AUTHOR: &str = "the sanqi developers";

/// Runs the protocol loop on standard input and output, with `game` as the game of `startpos`.
/// `error` (a bad command-line flag) is printed first as an error line.
pub fn run_stdio(game: GameKind, error: Option<String>) {
    run(game, error, None);
}

/// Runs the protocol loop with `game` as the game of `startpos`: on `commands` (one protocol
/// line each, then the engine ends) or, without them, on standard input.
pub fn run(game: GameKind, error: Option<String>, commands: Option<&[String]>) {
    let session = Session::with_game(Output::stdout(), game);
    if let Some(e) = error {
        session.report_error(e);
    }
    match commands {
        Some(lines) => session.run_commands(lines),
        None => {
            let stdin = std::io::stdin();
            session.run(stdin.lock());
        }
    }
}
