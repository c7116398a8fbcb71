//! GUI-to-engine commands of the UCI and UCCI dialects, and their text form.

use std::fmt;

use crate::{Dialect, InDialect};

/// Where a `position` (or `probe`) command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the start position of the current game (and player count).
    StartPos,
    /// `fen <fen>`: the FEN tokens joined by single spaces, not validated here.
    Fen(String),
}

/// A `register` command (UCI). The engine may ignore it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Register {
    /// `register later`.
    pub later: bool,
    /// `name <x>`: words up to `code`, joined by single spaces.
    pub name: Option<String>,
    /// `code <y>`: the rest of the words, joined by single spaces.
    pub code: Option<String>,
}

/// The parameters of `go` (everything optional; written in one fixed order, read in any order).
///
/// Times are kept as given (`i64`, negative values allowed: some GUIs send a negative clock when a side
/// oversteps; the engine clamps). UCI times are milliseconds; UCCI times are seconds unless the GUI was
/// told `usemillisec`; the engine converts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoParams {
    /// `searchmoves <m>...`: restrict the root to these moves (tokens up to the next `go` keyword).
    pub searchmoves: Vec<String>,
    /// `ponder`: search in ponder mode (never stop by itself; wait for `ponderhit` or `stop`).
    pub ponder: bool,
    /// `draw` (UCCI): the opponent offers a draw.
    pub draw: bool,
    /// `wtime <ms>`: White's (first player's) clock.
    pub wtime: Option<i64>,
    /// `btime <ms>`: Black's (second player's) clock.
    pub btime: Option<i64>,
    /// `winc <ms>`: White's increment.
    pub winc: Option<i64>,
    /// `binc <ms>`: Black's increment.
    pub binc: Option<i64>,
    /// `time <t>`: the clock of the side to move (UCCI, and Chinese checkers with any player count).
    pub time: Option<i64>,
    /// `movestogo <n>`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `increment <t>` (UCCI) or `inc <ms>` (Chinese checkers): the increment of the side to move.
    pub increment: Option<i64>,
    /// `opptime <t>` (UCCI): the opponent's clock.
    pub opptime: Option<i64>,
    /// `oppmovestogo <n>` (UCCI): the opponent's moves to the next control.
    pub oppmovestogo: Option<u32>,
    /// `oppincrement <t>` (UCCI): the opponent's increment.
    pub oppincrement: Option<i64>,
    /// `depth <n>`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes <n>`: search this many nodes.
    pub nodes: Option<u64>,
    /// `mate <n>`: search for a mate in `n` moves.
    pub mate: Option<u32>,
    /// `movetime <ms>`: search exactly this long.
    pub movetime: Option<i64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

/// One GUI-to-engine command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A blank line or a `#` comment: nothing to do.
    Empty,
    /// `uci`: switch to (or stay in) the UCI dialect and identify.
    Uci,
    /// `ucci`: switch to the UCCI dialect (xiangqi) and identify.
    Ucci,
    /// `debug [on|off]` (a bare `debug` means on).
    Debug(bool),
    /// `isready`: answer `readyok` at once.
    IsReady,
    /// UCI `setoption name <name> [value <value>]`; UCCI `setoption <name> [<value>]`.
    SetOption {
        /// The option name (UCI: words joined by single spaces; match it case-insensitively).
        name: String,
        /// The value: the rest of the line, trimmed (UCI: `Some("")` for a `value` with nothing after it).
        value: Option<String>,
    },
    /// `register later | register name <x> code <y>` (UCI).
    Register(Register),
    /// `ucinewgame`.
    UciNewGame,
    /// `position {startpos | fen <fen>} [moves <m>...]`.
    Position {
        /// Start position or FEN.
        start: PositionStart,
        /// Moves played from it (not validated here).
        moves: Vec<String>,
    },
    /// `go ...` (any form except `go perft`).
    Go(GoParams),
    /// `go perft <depth>` or `perft <depth>`: count leaf nodes, divided by root move.
    Perft {
        /// Depth in plies.
        depth: u32,
    },
    /// `stop`.
    Stop,
    /// `ponderhit [draw]` (`draw` is UCCI: the opponent offers a draw with the expected move).
    PonderHit {
        /// The opponent offers a draw.
        draw: bool,
    },
    /// `quit`.
    Quit,
    /// `banmoves <m>...` (UCCI): moves the engine must not play in the current position.
    BanMoves(Vec<String>),
    /// `probe {startpos | fen <fen>} [moves ...]` (UCCI): ask the hash table about a position.
    Probe {
        /// Start position or FEN.
        start: PositionStart,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `bench [<depth>]`: the fixed benchmark (node-count signature and speed).
    Bench {
        /// Search depth per position; the engine default if absent.
        depth: Option<u32>,
    },
    /// `genfens <n> seed <s> book <None|path> [<extra>...]`: `n` balanced openings as
    /// `info string genfens <fen>` lines (OpenBench's datagen workloads).
    Genfens {
        /// How many openings.
        count: u32,
        /// The seed: the same seed gives the same openings.
        seed: u64,
        /// An EPD/FEN book to start from (`None` for the literal `None`).
        book: Option<String>,
        /// The workload's extra words (`chess960`, `frc`...).
        extra: Vec<String>,
    },
    /// `d`: draw the board with its FEN and hash key.
    Display,
    /// `eval`: print the static evaluation.
    Eval,
    /// `spsa [<game>]`: list every tunable parameter (of one game: its evaluation and search
    /// parameters) as `name, int, value, min, max, step, rate` (the input format of SPSA tuners
    /// such as OpenBench's).
    Spsa {
        /// The game whose parameters to list (its `UCI_Variant` name); all if absent.
        game: Option<String>,
    },
    /// `moves [<piece>]`: list the legal moves (of one piece, given by its square or cell) with a
    /// witness path each (for Chinese-checkers GUIs that do not know the rules).
    ListMoves {
        /// Square or cell of the piece whose moves to list; all moves if absent.
        piece: Option<String>,
    },
}

impl Command {
    /// The command as one line (without the newline) in the given dialect.
    ///
    /// Parsing the written line with [`crate::parse_command`] in the same dialect gives the command back
    /// (for values that parsing itself can produce: words joined by single spaces, no empty UCCI value).
    pub fn display(&self, dialect: Dialect) -> InDialect<'_, Self> {
        InDialect {
            item: self,
            dialect,
        }
    }
}

fn write_start(f: &mut fmt::Formatter<'_>, start: &PositionStart, moves: &[String]) -> fmt::Result {
    match start {
        PositionStart::StartPos => f.write_str(" startpos")?,
        PositionStart::Fen(fen) => write!(f, " fen {fen}")?,
    }
    if !moves.is_empty() {
        f.write_str(" moves")?;
        for m in moves {
            write!(f, " {m}")?;
        }
    }
    Ok(())
}

impl fmt::Display for InDialect<'_, GoParams> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.item;
        f.write_str("go")?;
        if p.ponder {
            f.write_str(" ponder")?;
        }
        if p.draw {
            f.write_str(" draw")?;
        }
        let signed: [(&str, Option<i64>); 5] = [
            ("wtime", p.wtime),
            ("btime", p.btime),
            ("winc", p.winc),
            ("binc", p.binc),
            ("time", p.time),
        ];
        for (key, value) in signed {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(v) = p.movestogo {
            write!(f, " movestogo {v}")?;
        }
        if let Some(v) = p.increment {
            let key = match self.dialect {
                Dialect::Uci => "inc",
                Dialect::Ucci => "increment",
            };
            write!(f, " {key} {v}")?;
        }
        if let Some(v) = p.opptime {
            write!(f, " opptime {v}")?;
        }
        if let Some(v) = p.oppmovestogo {
            write!(f, " oppmovestogo {v}")?;
        }
        if let Some(v) = p.oppincrement {
            write!(f, " oppincrement {v}")?;
        }
        if let Some(v) = p.depth {
            write!(f, " depth {v}")?;
        }
        if let Some(v) = p.nodes {
            write!(f, " nodes {v}")?;
        }
        if let Some(v) = p.mate {
            write!(f, " mate {v}")?;
        }
        if let Some(v) = p.movetime {
            write!(f, " movetime {v}")?;
        }
        if p.infinite {
            f.write_str(" infinite")?;
        }
        if !p.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for m in &p.searchmoves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for InDialect<'_, Command> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Command::Empty => Ok(()),
            Command::Uci => f.write_str("uci"),
            Command::Ucci => f.write_str("ucci"),
            Command::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                match self.dialect {
                    Dialect::Uci => write!(f, "setoption name {name}")?,
                    Dialect::Ucci => write!(f, "setoption {name}")?,
                }
                match (self.dialect, value) {
                    (_, None) => Ok(()),
                    (Dialect::Uci, Some(v)) if v.is_empty() => f.write_str(" value"),
                    (Dialect::Uci, Some(v)) => write!(f, " value {v}"),
                    (Dialect::Ucci, Some(v)) => write!(f, " {v}"),
                }
            }
            Command::Register(r) => {
                f.write_str("register")?;
                if r.later {
                    f.write_str(" later")?;
                }
                if let Some(name) = &r.name {
                    write!(f, " name {name}")?;
                }
                if let Some(code) = &r.code {
                    write!(f, " code {code}")?;
                }
                Ok(())
            }
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { start, moves } => {
                f.write_str("position")?;
                write_start(f, start, moves)
            }
            Command::Go(params) => params.display(self.dialect).fmt(f),
            Command::Perft { depth } => write!(f, "go perft {depth}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit { draw } => {
                f.write_str(if *draw { "ponderhit draw" } else { "ponderhit" })
            }
            Command::Quit => f.write_str("quit"),
            Command::BanMoves(moves) => {
                f.write_str("banmoves")?;
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            Command::Probe { start, moves } => {
                f.write_str("probe")?;
                write_start(f, start, moves)
            }
            Command::Bench { depth } => match depth {
                Some(d) => write!(f, "bench {d}"),
                None => f.write_str("bench"),
            },
            Command::Genfens {
                count,
                seed,
                book,
                extra,
            } => {
                write!(
                    f,
                    "genfens {count} seed {seed} book {}",
                    book.as_deref().unwrap_or("None")
                )?;
                for word in extra {
                    write!(f, " {word}")?;
                }
                Ok(())
            }
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Spsa { game } => match game {
                Some(g) => write!(f, "spsa {g}"),
                None => f.write_str("spsa"),
            },
            Command::ListMoves { piece } => match piece {
                Some(p) => write!(f, "moves {p}"),
                None => f.write_str("moves"),
            },
        }
    }
}

impl GoParams {
    /// The `go` line for these parameters in the given dialect (UCI writes `inc`, UCCI `increment`).
    pub fn display(&self, dialect: Dialect) -> InDialect<'_, Self> {
        InDialect {
            item: self,
            dialect,
        }
    }
}
