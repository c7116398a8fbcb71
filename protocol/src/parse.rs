//! nom parsers for command and reply lines.
//!
//! A line is cut into tokens by a nom tokenizer (any run of spaces, tabs, `\r`, `\n`, form feeds or
//! vertical tabs separates tokens); the first token is the keyword, and each keyword's parameters are
//! read in any order. Numbers go through a nom recognizer and then a range-checked conversion, so a
//! huge number is an error naming its parameter. Everything is linear in the line length and without
//! recursion: a 1 MB line parses (or fails) quickly.

use std::str::FromStr;

use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{digit1, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::{pair, preceded};
use nom::IResult;

use crate::command::{Command, GoParams, PositionStart, Register};
use crate::error::{clip, ProtocolError};
use crate::reply::{Bound, Id, Info, OptionDecl, OptionKind, PopHash, Reply, Score};
use crate::Dialect;

/// Token separators: space, tab, CR, LF, vertical tab, form feed.
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0b' | '\x0c')
}

/// One token after optional separators.
fn token(input: &str) -> IResult<&str, &str> {
    preceded(take_while(is_separator), take_till1(is_separator))(input)
}

/// An optionally signed decimal integer, the whole token.
fn integer(input: &str) -> IResult<&str, &str> {
    all_consuming(recognize(pair(opt(one_of("+-")), digit1)))(input)
}

/// The tokens of one line, with the command keyword for error messages.
struct Tokens<'a> {
    line: &'a str,
    rest: &'a str,
    command: &'static str,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Self {
        Self {
            line,
            rest: line,
            command: "",
        }
    }

    fn next(&mut self) -> Option<&'a str> {
        match token(self.rest) {
            Ok((rest, tok)) => {
                self.rest = rest;
                Some(tok)
            }
            Err(_) => {
                self.rest = "";
                None
            }
        }
    }

    fn peek(&self) -> Option<&'a str> {
        token(self.rest).ok().map(|(_, tok)| tok)
    }

    /// The rest of the line without surrounding separators (inner spacing kept); consumes it.
    fn rest_of_line(&mut self) -> &'a str {
        let rest = self.rest.trim_matches(is_separator);
        self.rest = "";
        rest
    }

    /// Tokens up to (not including) the first one in `stops`, joined by single spaces.
    fn words_until(&mut self, stops: &[&str]) -> String {
        let mut out = String::new();
        while let Some(tok) = self.peek() {
            if stops.contains(&tok) {
                break;
            }
            self.next();
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(tok);
        }
        out
    }

    /// Tokens up to (not including) the first one in `stops`.
    fn tokens_until(&mut self, stops: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(tok) = self.peek() {
            if stops.contains(&tok) {
                break;
            }
            self.next();
            out.push(tok.to_owned());
        }
        out
    }

    fn offset(&self, tok: &str) -> usize {
        (tok.as_ptr() as usize).saturating_sub(self.line.as_ptr() as usize)
    }

    fn missing(&self, argument: &'static str) -> ProtocolError {
        ProtocolError::MissingArgument {
            command: self.command,
            argument,
        }
    }

    fn bad(&self, parameter: &'static str, tok: &str, reason: &'static str) -> ProtocolError {
        ProtocolError::BadValue {
            command: self.command,
            parameter,
            value: clip(tok),
            reason,
            offset: self.offset(tok),
        }
    }

    /// The next token, required.
    fn required(&mut self, parameter: &'static str) -> Result<&'a str, ProtocolError> {
        self.next().ok_or_else(|| self.missing(parameter))
    }

    /// The next token as an integer of type `T`, required.
    fn number<T: FromStr>(&mut self, parameter: &'static str) -> Result<T, ProtocolError> {
        let tok = self.required(parameter)?;
        self.convert(parameter, tok)
    }

    fn convert<T: FromStr>(&self, parameter: &'static str, tok: &str) -> Result<T, ProtocolError> {
        if integer(tok).is_err() {
            return Err(self.bad(parameter, tok, "not an integer"));
        }
        tok.parse::<T>().map_err(|_| {
            let unsigned = "-1".parse::<T>().is_err();
            let reason = if unsigned && tok.starts_with('-') {
                "must not be negative"
            } else {
                "out of range"
            };
            self.bad(parameter, tok, reason)
        })
    }
}

/// Every command keyword (the first word of a GUI-to-engine line).
const COMMANDS: &[&str] = &[
    "uci",
    "ucci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "banmoves",
    "probe",
    "bench",
    "d",
    "eval",
    "moves",
    "spsa",
];

/// Every `go` parameter keyword (they end a `searchmoves` list).
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "draw",
    "wtime",
    "btime",
    "winc",
    "binc",
    "time",
    "movestogo",
    "inc",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses one GUI-to-engine line (a trailing `\r\n` is fine).
///
/// Blank lines and lines whose first word starts with `#` give [`Command::Empty`]. Keywords are
/// case-sensitive lower case. Every command is recognized in both dialects; the dialect only decides the
/// form of `setoption` (UCI `setoption name <n> [value <v>]`, UCCI `setoption <n> [<v>]`).
///
/// # Errors
/// [`ProtocolError::UnknownCommand`] for an unknown first word, [`ProtocolError::MissingArgument`] and
/// [`ProtocolError::BadValue`] for a missing or malformed argument (inside `go`, unknown words are
/// skipped but a known parameter with a bad value is an error).
pub fn parse_command(line: &str, dialect: Dialect) -> Result<Command, ProtocolError> {
    let mut t = Tokens::new(line);
    let Some(first) = t.next() else {
        return Ok(Command::Empty);
    };
    if first.starts_with('#') {
        return Ok(Command::Empty);
    }
    let Some(&command) = COMMANDS.iter().find(|c| **c == first) else {
        return Err(ProtocolError::UnknownCommand { text: clip(first) });
    };
    t.command = command;
    Ok(match command {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "spsa" => Command::Spsa,
        "debug" => match t.next() {
            None | Some("on") => Command::Debug(true),
            Some("off") => Command::Debug(false),
            Some(tok) => return Err(t.bad("mode", tok, "expected `on` or `off`")),
        },
        "setoption" => parse_setoption(&mut t, dialect)?,
        "register" => parse_register(&mut t)?,
        "position" => {
            let (start, moves) = parse_start(&mut t)?;
            Command::Position { start, moves }
        }
        "probe" => {
            let (start, moves) = parse_start(&mut t)?;
            Command::Probe { start, moves }
        }
        "go" => parse_go(&mut t)?,
        "perft" => Command::Perft {
            depth: t.number("depth")?,
        },
        "ponderhit" => Command::PonderHit {
            draw: t.next() == Some("draw"),
        },
        "banmoves" => Command::BanMoves(t.tokens_until(&[])),
        "bench" => Command::Bench {
            depth: match t.next() {
                None => None,
                Some(tok) => Some(t.convert("depth", tok)?),
            },
        },
        "moves" => Command::ListMoves {
            piece: t.next().map(str::to_owned),
        },
        _ => return Err(ProtocolError::UnknownCommand { text: clip(first) }),
    })
}

/// Like [`parse_command`] on raw bytes: rejects a line that is not UTF-8.
///
/// # Errors
/// [`ProtocolError::NotUtf8`] with the offset of the first bad byte, or any error of [`parse_command`].
pub fn parse_command_bytes(line: &[u8], dialect: Dialect) -> Result<Command, ProtocolError> {
    parse_command(utf8(line)?, dialect)
}

fn utf8(line: &[u8]) -> Result<&str, ProtocolError> {
    std::str::from_utf8(line).map_err(|e| ProtocolError::NotUtf8 {
        valid_up_to: e.valid_up_to(),
    })
}

fn parse_setoption(t: &mut Tokens<'_>, dialect: Dialect) -> Result<Command, ProtocolError> {
    match dialect {
        Dialect::Uci => {
            let keyword = t.required("name")?;
            if keyword != "name" {
                return Err(t.bad("name", keyword, "expected `name`"));
            }
            let name = t.words_until(&["value"]);
            if name.is_empty() {
                return Err(t.missing("name"));
            }
            // After the `value` keyword (the only token that can stop the name) comes the value.
            let value = t.next().map(|_value| t.rest_of_line().to_owned());
            Ok(Command::SetOption { name, value })
        }
        Dialect::Ucci => {
            let name = t.required("name")?.to_owned();
            let rest = t.rest_of_line();
            let value = (!rest.is_empty()).then(|| rest.to_owned());
            Ok(Command::SetOption { name, value })
        }
    }
}

fn parse_register(t: &mut Tokens<'_>) -> Result<Command, ProtocolError> {
    let mut r = Register::default();
    let mut any = false;
    while let Some(tok) = t.next() {
        match tok {
            "later" => {
                r.later = true;
                any = true;
            }
            "name" => {
                r.name = Some(t.words_until(&["code"]));
                any = true;
            }
            "code" => {
                r.code = Some(t.words_until(&["name"]));
                any = true;
            }
            _ => {}
        }
    }
    if any {
        Ok(Command::Register(r))
    } else {
        Err(t.missing("`later` or `name ... code ...`"))
    }
}

fn parse_start(t: &mut Tokens<'_>) -> Result<(PositionStart, Vec<String>), ProtocolError> {
    let tok = t.required("`startpos` or `fen`")?;
    let start = match tok {
        "startpos" => PositionStart::StartPos,
        "fen" => {
            let fen = t.words_until(&["moves"]);
            if fen.is_empty() {
                return Err(t.missing("FEN after `fen`"));
            }
            PositionStart::Fen(fen)
        }
        _ => return Err(t.bad("start", tok, "expected `startpos` or `fen`")),
    };
    let moves = match t.next() {
        None => Vec::new(),
        Some("moves") => t.tokens_until(&[]),
        Some(other) => return Err(t.bad("moves", other, "expected `moves`")),
    };
    Ok((start, moves))
}

fn parse_go(t: &mut Tokens<'_>) -> Result<Command, ProtocolError> {
    let mut p = GoParams::default();
    let mut perft = None;
    while let Some(tok) = t.next() {
        match tok {
            "searchmoves" => p.searchmoves = t.tokens_until(GO_KEYWORDS),
            "ponder" => p.ponder = true,
            "draw" => p.draw = true,
            "infinite" => p.infinite = true,
            "wtime" => p.wtime = Some(t.number("wtime")?),
            "btime" => p.btime = Some(t.number("btime")?),
            "winc" => p.winc = Some(t.number("winc")?),
            "binc" => p.binc = Some(t.number("binc")?),
            "time" => p.time = Some(t.number("time")?),
            "movestogo" => p.movestogo = Some(t.number("movestogo")?),
            "inc" => p.increment = Some(t.number("inc")?),
            "increment" => p.increment = Some(t.number("increment")?),
            "opptime" => p.opptime = Some(t.number("opptime")?),
            "oppmovestogo" => p.oppmovestogo = Some(t.number("oppmovestogo")?),
            "oppincrement" => p.oppincrement = Some(t.number("oppincrement")?),
            "depth" => p.depth = Some(t.number("depth")?),
            "nodes" => p.nodes = Some(t.number("nodes")?),
            "mate" => p.mate = Some(t.number("mate")?),
            "movetime" => p.movetime = Some(t.number("movetime")?),
            "perft" => perft = Some(t.number("perft")?),
            _ => {} // unknown tokens are skipped (UCI)
        }
    }
    Ok(match perft {
        Some(depth) => Command::Perft { depth },
        None => Command::Go(p),
    })
}

/// Every reply keyword that has its own parser.
const REPLIES: &[&str] = &[
    "id",
    "uciok",
    "ucciok",
    "readyok",
    "option",
    "bestmove",
    "nobestmove",
    "bye",
    "info",
    "pophash",
    "Nodes",
];

/// Every `info` keyword (they end a `pv` list).
const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "multipv",
    "score",
    "lowerbound",
    "upperbound",
    "wdl",
    "currmove",
    "currmovenumber",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "cpuload",
    "time",
    "pv",
    "string",
    "message",
    "refutation",
    "currline",
];

const OPTION_KEYWORDS: &[&str] = &["default", "min", "max", "var"];

/// Parses one engine-to-GUI line (for tests, tools and GUIs written on this crate).
///
/// Both dialects' forms of `score` and `string`/`message` are accepted; `option` lines follow the
/// dialect (UCI with `name`, UCCI without). `bestmove (none)` gives [`Reply::NoBestMove`]. Unknown
/// `info` words are skipped.
///
/// # Errors
/// [`ProtocolError::UnknownCommand`] for an unknown first word, [`ProtocolError::MissingArgument`] and
/// [`ProtocolError::BadValue`] for missing or malformed values, including a spin default outside
/// `min..=max` and a combo default that is not one of its vars.
pub fn parse_reply(line: &str, dialect: Dialect) -> Result<Reply, ProtocolError> {
    let mut t = Tokens::new(line);
    let Some(first) = t.next() else {
        return Err(ProtocolError::MissingArgument {
            command: "reply",
            argument: "keyword",
        });
    };
    let Some(&keyword) = REPLIES.iter().find(|c| **c == first) else {
        return parse_perft_move(&mut t, first);
    };
    t.command = keyword;
    Ok(match keyword {
        "uciok" => Reply::UciOk,
        "ucciok" => Reply::UcciOk,
        "readyok" => Reply::ReadyOk,
        "nobestmove" => Reply::NoBestMove,
        "bye" => Reply::Bye,
        "id" => {
            let kind = t.required("`name`, `author` or `copyright`")?;
            let text = t.rest_of_line().to_owned();
            if text.is_empty() {
                return Err(t.missing("text"));
            }
            match kind {
                "name" => Reply::Id(Id::Name(text)),
                "author" => Reply::Id(Id::Author(text)),
                "copyright" => Reply::Id(Id::Copyright(text)),
                _ => return Err(t.bad("kind", kind, "expected `name`, `author` or `copyright`")),
            }
        }
        "option" => Reply::Option(parse_option(&mut t, dialect)?),
        "bestmove" => parse_bestmove(&mut t)?,
        "info" => Reply::Info(parse_info(&mut t)?),
        "pophash" => Reply::PopHash(parse_pophash(&mut t)?),
        "Nodes" => {
            let tok = t.required("`searched:`")?;
            if tok != "searched:" {
                return Err(t.bad("searched", tok, "expected `searched:`"));
            }
            Reply::PerftTotal {
                nodes: t.number("nodes")?,
            }
        }
        _ => return Err(ProtocolError::UnknownCommand { text: clip(first) }),
    })
}

/// Like [`parse_reply`] on raw bytes: rejects a line that is not UTF-8.
///
/// # Errors
/// [`ProtocolError::NotUtf8`] with the offset of the first bad byte, or any error of [`parse_reply`].
pub fn parse_reply_bytes(line: &[u8], dialect: Dialect) -> Result<Reply, ProtocolError> {
    parse_reply(utf8(line)?, dialect)
}

fn parse_perft_move(t: &mut Tokens<'_>, first: &str) -> Result<Reply, ProtocolError> {
    let unknown = || ProtocolError::UnknownCommand { text: clip(first) };
    let Some(mv) = first.strip_suffix(':').filter(|m| !m.is_empty()) else {
        return Err(unknown());
    };
    t.command = "perft";
    let nodes = t.number("nodes")?;
    if t.next().is_some() {
        return Err(unknown());
    }
    Ok(Reply::PerftMove {
        mv: mv.to_owned(),
        nodes,
    })
}

fn parse_option(t: &mut Tokens<'_>, dialect: Dialect) -> Result<OptionDecl, ProtocolError> {
    if dialect == Dialect::Uci {
        let tok = t.required("name")?;
        if tok != "name" {
            return Err(t.bad("name", tok, "expected `name`"));
        }
    }
    let name_at = t.peek();
    let name = t.words_until(&["type"]);
    if name.is_empty() {
        return Err(t.missing("name"));
    }
    if dialect == Dialect::Ucci && name.contains(' ') {
        let at = name_at.unwrap_or_default();
        return Err(t.bad("name", at, "a UCCI option name is one word"));
    }
    if t.next().is_none() {
        return Err(t.missing("type"));
    }
    let kind_tok = t.required("type")?;
    let mut default: Option<(String, &str)> = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    while let Some(tok) = t.next() {
        match tok {
            "default" => {
                let at = t.peek().unwrap_or(tok);
                default = Some((t.words_until(OPTION_KEYWORDS), at));
            }
            "min" => min = Some(t.number::<i64>("min")?),
            "max" => max = Some(t.number::<i64>("max")?),
            "var" => vars.push(t.words_until(OPTION_KEYWORDS)),
            other => return Err(t.bad("option field", other, "expected default, min, max or var")),
        }
    }
    let kind = match kind_tok {
        "check" => {
            let (value, at) = default.ok_or_else(|| t.missing("default"))?;
            match value.as_str() {
                "true" => OptionKind::Check { default: true },
                "false" => OptionKind::Check { default: false },
                _ => return Err(t.bad("default", at, "expected `true` or `false`")),
            }
        }
        "spin" => {
            let (value, at) = default.ok_or_else(|| t.missing("default"))?;
            let default: i64 = t.convert("default", at).and_then(|v| {
                if value.contains(' ') {
                    Err(t.bad("default", at, "not an integer"))
                } else {
                    Ok(v)
                }
            })?;
            let min = min.ok_or_else(|| t.missing("min"))?;
            let max = max.ok_or_else(|| t.missing("max"))?;
            if !(min..=max).contains(&default) {
                return Err(t.bad("default", at, "outside min..max"));
            }
            OptionKind::Spin { default, min, max }
        }
        "combo" => {
            let (default, at) = default.ok_or_else(|| t.missing("default"))?;
            if !vars.contains(&default) {
                return Err(t.bad("default", at, "not one of the vars"));
            }
            OptionKind::Combo { default, vars }
        }
        "button" => OptionKind::Button,
        "label" => OptionKind::Label,
        "string" => {
            let default = match default {
                Some((v, _)) if v != "<empty>" => v,
                _ => String::new(),
            };
            OptionKind::String { default }
        }
        other => return Err(t.bad("type", other, "unknown option type")),
    };
    Ok(OptionDecl { name, kind })
}

fn parse_bestmove(t: &mut Tokens<'_>) -> Result<Reply, ProtocolError> {
    let mv = t.required("move")?;
    let mut ponder = None;
    let mut draw = false;
    let mut resign = false;
    while let Some(tok) = t.next() {
        match tok {
            "ponder" => ponder = Some(t.required("ponder move")?.to_owned()),
            "draw" => draw = true,
            "resign" => resign = true,
            _ => {}
        }
    }
    if mv == "(none)" && ponder.is_none() && !draw && !resign {
        return Ok(Reply::NoBestMove);
    }
    Ok(Reply::BestMove {
        mv: mv.to_owned(),
        ponder,
        draw,
        resign,
    })
}

fn parse_info(t: &mut Tokens<'_>) -> Result<Info, ProtocolError> {
    let mut i = Info::default();
    while let Some(tok) = t.next() {
        match tok {
            "depth" => i.depth = Some(t.number("depth")?),
            "seldepth" => i.seldepth = Some(t.number("seldepth")?),
            "multipv" => i.multipv = Some(t.number("multipv")?),
            "score" => {
                let kind = t.required("score")?;
                i.score = Some(match kind {
                    "cp" => Score::Cp(t.number("score cp")?),
                    "mate" => Score::Mate(t.number("score mate")?),
                    bare => Score::Cp(t.convert("score", bare)?),
                });
            }
            "lowerbound" => i.bound = Some(Bound::Lower),
            "upperbound" => i.bound = Some(Bound::Upper),
            "wdl" => {
                let w = t.number("wdl")?;
                let d = t.number("wdl")?;
                let l = t.number("wdl")?;
                i.wdl = Some((w, d, l));
            }
            "currmove" => i.currmove = Some(t.required("currmove")?.to_owned()),
            "currmovenumber" => i.currmovenumber = Some(t.number("currmovenumber")?),
            "nodes" => i.nodes = Some(t.number("nodes")?),
            "nps" => i.nps = Some(t.number("nps")?),
            "hashfull" => i.hashfull = Some(t.number("hashfull")?),
            "tbhits" => i.tbhits = Some(t.number("tbhits")?),
            "cpuload" => i.cpuload = Some(t.number("cpuload")?),
            "time" => i.time = Some(t.number("time")?),
            "pv" => i.pv = t.tokens_until(INFO_KEYWORDS),
            "string" | "message" => i.string = Some(t.rest_of_line().to_owned()),
            _ => {} // unknown words (refutation, currline and their arguments) are skipped
        }
    }
    Ok(i)
}

fn parse_pophash(t: &mut Tokens<'_>) -> Result<PopHash, ProtocolError> {
    let mut p = PopHash::default();
    while let Some(tok) = t.next() {
        match tok {
            "bestmove" => p.bestmove = Some(t.required("bestmove")?.to_owned()),
            "lowerbound" | "upperbound" => {
                let value = t.number("bound value")?;
                let depth_kw = t.required("depth")?;
                if depth_kw != "depth" {
                    return Err(t.bad("depth", depth_kw, "expected `depth`"));
                }
                let depth = t.number("depth")?;
                if tok == "lowerbound" {
                    p.lowerbound = Some((value, depth));
                } else {
                    p.upperbound = Some((value, depth));
                }
            }
            _ => {}
        }
    }
    Ok(p)
}
