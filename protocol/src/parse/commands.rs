//! GUI-to-engine lines.

use super::tokens::*;
use crate::command::{Command, GoParams, PositionStart, Register};
use crate::error::{clip, ProtocolError};
use crate::Dialect;

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
    "genfens",
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
        "spsa" => Command::Spsa {
            game: t.next().map(str::to_owned),
        },
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
        "genfens" => {
            let count = t.number("count")?;
            let word = t.required("seed")?;
            if word != "seed" {
                return Err(t.bad("seed", word, "expected `seed`"));
            }
            let seed = t.number("seed")?;
            let word = t.required("book")?;
            if word != "book" {
                return Err(t.bad("book", word, "expected `book`"));
            }
            let book = t.required("book")?;
            Command::Genfens {
                count,
                seed,
                book: (book != "None").then(|| book.to_string()),
                extra: t.tokens_until(&[]),
            }
        }
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
