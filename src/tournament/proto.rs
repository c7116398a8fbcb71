//! Which protocol an engine speaks (a leaf: the time control, the engine process and the
//! configuration all use it).

use sanqi_protocol::Dialect;

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI (with `UCI_Variant` when the engine declares it).
    Uci,
    /// UCCI (xiangqi engines such as ElephantEye).
    Ucci,
    /// UCI as Fairy-Stockfish speaks it: `UCI_Variant` always sent, and the engine's setup
    /// defaults to Fairy-Stockfish's notation (see [`super::args`]).
    UciFsf,
}

impl Proto {
    /// The protocol dialect of commands and replies.
    pub fn dialect(self) -> Dialect {
        match self {
            Proto::Ucci => Dialect::Ucci,
            Proto::Uci | Proto::UciFsf => Dialect::Uci,
        }
    }

    /// Reads `uci`, `ucci`, `uci-fsf` (or `fsf`).
    pub fn from_name(name: &str) -> Option<Proto> {
        match name {
            "uci" => Some(Proto::Uci),
            "ucci" => Some(Proto::Ucci),
            "uci-fsf" | "fsf" => Some(Proto::UciFsf),
            _ => None,
        }
    }
}
