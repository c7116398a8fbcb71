//! Engine-to-GUI replies of the UCI and UCCI dialects, written with `Display` in either dialect.

use std::fmt;

use crate::{Dialect, InDialect};

/// Mate scores in UCCI have no own form: they are written as `MATE_VALUE - plies` (ElephantEye style).
pub const UCCI_MATE_VALUE: i32 = 10_000;

/// An `id` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Id {
    /// `id name <text>`.
    Name(String),
    /// `id author <text>`.
    Author(String),
    /// `id copyright <text>` (UCCI).
    Copyright(String),
}

/// The type, default and range of an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <true|false>`.
    Check {
        /// The default value.
        default: bool,
    },
    /// `type spin default <n> min <a> max <b>`; the default must lie in `min..=max`.
    Spin {
        /// The default value.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo default <v> var <a> var <b> ...`; the default must be one of the vars.
    Combo {
        /// The default value.
        default: String,
        /// The possible values.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default <text>` (empty default written `<empty>` in UCI, omitted in UCCI).
    String {
        /// The default value.
        default: String,
    },
    /// `type label` (UCCI): text shown by the GUI, without a value.
    Label,
}

/// An `option` line: an option the engine offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option name (UCI names may contain spaces; UCCI names are one word).
    pub name: String,
    /// The type with default and range.
    pub kind: OptionKind,
}

/// A search score as reported in `info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (or the game's unit) from the side to move's point of view: UCI `cp <x>`, UCCI `<x>`.
    Cp(i32),
    /// Mate in `n` moves (negative: being mated): UCI `mate <n>`; UCCI writes
    /// `±(UCCI_MATE_VALUE - plies)`.
    Mate(i32),
}

/// Whether a score is only a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// The fields of an `info` line (all optional), written in Stockfish's order:
/// `depth seldepth multipv score [wdl] [bound] currmove currmovenumber nodes nps hashfull tbhits cpuload
/// time pv string`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    /// `depth <plies>`.
    pub depth: Option<u32>,
    /// `seldepth <plies>`.
    pub seldepth: Option<u32>,
    /// `multipv <n>` (1-based).
    pub multipv: Option<u32>,
    /// `score ...`.
    pub score: Option<Score>,
    /// `lowerbound` / `upperbound` after the score.
    pub bound: Option<Bound>,
    /// `wdl <w> <d> <l>` in per mille (UCI, with `UCI_ShowWDL`).
    pub wdl: Option<(u32, u32, u32)>,
    /// `currmove <m>`.
    pub currmove: Option<String>,
    /// `currmovenumber <n>` (1-based).
    pub currmovenumber: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `nps <n>`.
    pub nps: Option<u64>,
    /// `hashfull <per mille>`.
    pub hashfull: Option<u32>,
    /// `tbhits <n>`.
    pub tbhits: Option<u64>,
    /// `cpuload <per mille>`.
    pub cpuload: Option<u32>,
    /// `time <ms>`.
    pub time: Option<u64>,
    /// `pv <m>...`.
    pub pv: Vec<String>,
    /// Free text to the end of the line: UCI `string <text>`, UCCI `message <text>`.
    pub string: Option<String>,
}

/// A `pophash` reply to UCCI `probe`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PopHash {
    /// `bestmove <m>`.
    pub bestmove: Option<String>,
    /// `lowerbound <value> depth <d>`.
    pub lowerbound: Option<(i32, u32)>,
    /// `upperbound <value> depth <d>`.
    pub upperbound: Option<(i32, u32)>,
}

/// One engine-to-GUI line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `id name|author|copyright <text>`.
    Id(Id),
    /// `uciok`.
    UciOk,
    /// `ucciok`.
    UcciOk,
    /// `readyok`.
    ReadyOk,
    /// `option ...` (UCI: `option name <n> type ...`; UCCI: `option <n> type ...`).
    Option(OptionDecl),
    /// `bestmove <m> [ponder <m>]`, and in UCCI `[draw | resign]`.
    BestMove {
        /// The move to play.
        mv: String,
        /// The expected reply to ponder on.
        ponder: Option<String>,
        /// UCCI: offer (or accept) a draw. Not written in UCI.
        draw: bool,
        /// UCCI: resign. Not written in UCI.
        resign: bool,
    },
    /// No move to play: UCCI `nobestmove`, UCI `bestmove (none)`.
    NoBestMove,
    /// `bye` (UCCI, after `quit`).
    Bye,
    /// `info ...`.
    Info(Info),
    /// `pophash ...` (UCCI, after `probe`).
    PopHash(PopHash),
    /// `<move>: <count>`: one root move of `go perft`.
    PerftMove {
        /// The root move.
        mv: String,
        /// Leaf nodes below it.
        nodes: u64,
    },
    /// `Nodes searched: <n>`: the total of `go perft` (preceded by a blank line, written by the engine).
    PerftTotal {
        /// Total leaf nodes.
        nodes: u64,
    },
    /// Any other text, written as is (board drawings, bench summaries). Never produced by parsing.
    Raw(String),
}

impl Reply {
    /// A free-text `info` line: UCI `info string <text>`, UCCI `info message <text>`.
    pub fn message(text: impl Into<String>) -> Self {
        Self::Info(Info {
            string: Some(text.into()),
            ..Info::default()
        })
    }

    /// An error report that keeps the engine going: UCI `info string error: <text>`,
    /// UCCI `info message error: <text>` (the form is chosen when the reply is displayed).
    pub fn error(text: impl fmt::Display) -> Self {
        Self::message(format!("error: {text}"))
    }

    /// A `bestmove` with an optional ponder move and neither draw nor resign.
    pub fn best_move(mv: impl Into<String>, ponder: Option<String>) -> Self {
        Self::BestMove {
            mv: mv.into(),
            ponder,
            draw: false,
            resign: false,
        }
    }

    /// The reply as one line (without the newline) in the given dialect.
    pub fn display(&self, dialect: Dialect) -> InDialect<'_, Self> {
        InDialect {
            item: self,
            dialect,
        }
    }
}

impl Score {
    /// The bare UCCI score: centipawns as is, mate in `n` as `±(UCCI_MATE_VALUE - plies)`.
    pub fn ucci_value(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => UCCI_MATE_VALUE - (n.saturating_mul(2) - 1),
            Score::Mate(n) => -(UCCI_MATE_VALUE + n.saturating_mul(2)),
        }
    }
}

impl fmt::Display for InDialect<'_, OptionDecl> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OptionDecl { name, kind } = self.item;
        match self.dialect {
            Dialect::Uci => {
                write!(f, "option name {name} type ")?;
                match kind {
                    OptionKind::Check { default } => write!(f, "check default {default}"),
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin default {default} min {min} max {max}")
                    }
                    OptionKind::Combo { default, vars } => {
                        write!(f, "combo default {default}")?;
                        for v in vars {
                            write!(f, " var {v}")?;
                        }
                        Ok(())
                    }
                    OptionKind::Button => f.write_str("button"),
                    OptionKind::String { default } if default.is_empty() => {
                        f.write_str("string default <empty>")
                    }
                    OptionKind::String { default } => write!(f, "string default {default}"),
                    OptionKind::Label => f.write_str("label"),
                }
            }
            Dialect::Ucci => {
                write!(f, "option {name} type ")?;
                match kind {
                    OptionKind::Check { default } => write!(f, "check default {default}"),
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin min {min} max {max} default {default}")
                    }
                    OptionKind::Combo { default, vars } => {
                        f.write_str("combo")?;
                        for v in vars {
                            write!(f, " var {v}")?;
                        }
                        write!(f, " default {default}")
                    }
                    OptionKind::Button => f.write_str("button"),
                    OptionKind::String { default } if default.is_empty() => f.write_str("string"),
                    OptionKind::String { default } => write!(f, "string default {default}"),
                    OptionKind::Label => f.write_str("label"),
                }
            }
        }
    }
}

impl OptionDecl {
    /// The option line in the given dialect.
    pub fn display(&self, dialect: Dialect) -> InDialect<'_, Self> {
        InDialect {
            item: self,
            dialect,
        }
    }
}

impl fmt::Display for InDialect<'_, Info> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = self.item;
        f.write_str("info")?;
        if let Some(v) = i.depth {
            write!(f, " depth {v}")?;
        }
        if let Some(v) = i.seldepth {
            write!(f, " seldepth {v}")?;
        }
        if let Some(v) = i.multipv {
            write!(f, " multipv {v}")?;
        }
        if let Some(score) = i.score {
            match (self.dialect, score) {
                (Dialect::Uci, Score::Cp(v)) => write!(f, " score cp {v}")?,
                (Dialect::Uci, Score::Mate(n)) => write!(f, " score mate {n}")?,
                (Dialect::Ucci, s) => write!(f, " score {}", s.ucci_value())?,
            }
        }
        if let Some((w, d, l)) = i.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        match i.bound {
            Some(Bound::Lower) => f.write_str(" lowerbound")?,
            Some(Bound::Upper) => f.write_str(" upperbound")?,
            None => {}
        }
        if let Some(m) = &i.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(v) = i.currmovenumber {
            write!(f, " currmovenumber {v}")?;
        }
        if let Some(v) = i.nodes {
            write!(f, " nodes {v}")?;
        }
        if let Some(v) = i.nps {
            write!(f, " nps {v}")?;
        }
        if let Some(v) = i.hashfull {
            write!(f, " hashfull {v}")?;
        }
        if let Some(v) = i.tbhits {
            write!(f, " tbhits {v}")?;
        }
        if let Some(v) = i.cpuload {
            write!(f, " cpuload {v}")?;
        }
        if let Some(v) = i.time {
            write!(f, " time {v}")?;
        }
        if !i.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &i.pv {
                write!(f, " {m}")?;
            }
        }
        if let Some(text) = &i.string {
            let key = match self.dialect {
                Dialect::Uci => "string",
                Dialect::Ucci => "message",
            };
            write!(f, " {key} {text}")?;
        }
        Ok(())
    }
}

impl Info {
    /// The `info` line in the given dialect.
    pub fn display(&self, dialect: Dialect) -> InDialect<'_, Self> {
        InDialect {
            item: self,
            dialect,
        }
    }
}

impl fmt::Display for InDialect<'_, Reply> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Reply::Id(Id::Name(t)) => write!(f, "id name {t}"),
            Reply::Id(Id::Author(t)) => write!(f, "id author {t}"),
            Reply::Id(Id::Copyright(t)) => write!(f, "id copyright {t}"),
            Reply::UciOk => f.write_str("uciok"),
            Reply::UcciOk => f.write_str("ucciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Option(decl) => decl.display(self.dialect).fmt(f),
            Reply::BestMove {
                mv,
                ponder,
                draw,
                resign,
            } => {
                write!(f, "bestmove {mv}")?;
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                if self.dialect == Dialect::Ucci {
                    if *draw {
                        f.write_str(" draw")?;
                    }
                    if *resign {
                        f.write_str(" resign")?;
                    }
                }
                Ok(())
            }
            Reply::NoBestMove => match self.dialect {
                Dialect::Uci => f.write_str("bestmove (none)"),
                Dialect::Ucci => f.write_str("nobestmove"),
            },
            Reply::Bye => f.write_str("bye"),
            Reply::Info(info) => info.display(self.dialect).fmt(f),
            Reply::PopHash(p) => {
                f.write_str("pophash")?;
                if let Some(m) = &p.bestmove {
                    write!(f, " bestmove {m}")?;
                }
                if let Some((v, d)) = p.lowerbound {
                    write!(f, " lowerbound {v} depth {d}")?;
                }
                if let Some((v, d)) = p.upperbound {
                    write!(f, " upperbound {v} depth {d}")?;
                }
                Ok(())
            }
            Reply::PerftMove { mv, nodes } => write!(f, "{mv}: {nodes}"),
            Reply::PerftTotal { nodes } => write!(f, "Nodes searched: {nodes}"),
            Reply::Raw(text) => f.write_str(text),
        }
    }
}
