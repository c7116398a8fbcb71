//! Engine-to-GUI lines (for tests, tools and GUIs written on this crate).

use super::tokens::*;
use crate::error::{clip, ProtocolError};
use crate::reply::{Bound, Id, Info, OptionDecl, OptionKind, PopHash, Reply, Score};
use crate::Dialect;

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
