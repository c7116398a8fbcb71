//! sanqi-protocol: typed UCI and UCCI commands (GUI to engine) and replies (engine to GUI).
//!
//! No engine code and no game rules live here: moves, squares and FENs stay text tokens, checked by the
//! engine. Lines are parsed with nom into [`Command`] (and [`Reply`], for tests and tools); both are
//! written back with `Display` in either [`Dialect`] through their `display(dialect)` methods, so
//! parsing a written line gives the same value. Errors are one type, [`ProtocolError`], that names the
//! command, the parameter, the offending text and its byte offset.
//!
//! ```
//! use sanqi_protocol::{parse_command, Command, Dialect, GoParams, Info, Reply, Score};
//!
//! let cmd = parse_command("go wtime 60000 btime 58000 winc 1000 binc 1000\r\n", Dialect::Uci)?;
//! let Command::Go(GoParams { wtime, binc, .. }) = cmd else { unreachable!() };
//! assert_eq!((wtime, binc), (Some(60_000), Some(1_000)));
//!
//! let info = Reply::Info(Info {
//!     depth: Some(10),
//!     score: Some(Score::Cp(23)),
//!     pv: vec!["h2e2".into(), "h9g7".into()],
//!     ..Info::default()
//! });
//! assert_eq!(info.display(Dialect::Uci).to_string(), "info depth 10 score cp 23 pv h2e2 h9g7");
//! assert_eq!(info.display(Dialect::Ucci).to_string(), "info depth 10 score 23 pv h2e2 h9g7");
//!
//! let err = parse_command("go depth 99999999999999999999", Dialect::Uci).unwrap_err();
//! assert_eq!(err.to_string(), "`go`: bad value `99999999999999999999` for depth at byte 9: out of range");
//! # Ok::<(), sanqi_protocol::ProtocolError>(())
//! ```

#![warn(missing_docs)]

pub mod command;
pub mod error;
pub mod parse;
pub mod reply;

pub use command::{Command, GoParams, PositionStart, Register};
pub use error::ProtocolError;
pub use parse::{parse_command, parse_command_bytes, parse_reply, parse_reply_bytes};
pub use reply::{Bound, Id, Info, OptionDecl, OptionKind, PopHash, Reply, Score, UCCI_MATE_VALUE};

/// The protocol dialect the GUI speaks: chosen by its first command (`uci` or `ucci`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// UCI (chess, Chess960, Chinese checkers, and xiangqi for UCI GUIs).
    #[default]
    Uci,
    /// UCCI (xiangqi).
    Ucci,
}

impl std::fmt::Display for Dialect {
    /// `uci` or `ucci`: the command that selects the dialect.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
        })
    }
}

/// A command, reply or part of one, ready to be written in one dialect (it implements `Display`).
///
/// Made by the `display(dialect)` methods of [`Command`], [`GoParams`], [`Reply`], [`Info`] and
/// [`OptionDecl`].
#[derive(Debug, Clone, Copy)]
pub struct InDialect<'a, T> {
    pub(crate) item: &'a T,
    pub(crate) dialect: Dialect,
}
