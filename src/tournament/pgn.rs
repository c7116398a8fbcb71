//! Game records as PGN: chess in SAN, xiangqi in the ICCS format (`[Format "ICCS"]`, moves `H2-E2`)
//! as XiangQi Wizard and other Chinese tools read it, Chinese checkers as a PGN-style move list
//! (`[Variant "chinesecheckers"]`, one `SeatN` tag per player, coordinate moves such as `k3k5`).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::referee::GameRecord;
use crate::game::{Game, GameConfig, MoveBuffer};

/// Chess SAN of a legal move (`Nbd7`, `exd5`, `O-O`, `e8=Q+`, `Qh7#`), from sanqi's rules code and
/// the piece letters of the position string.
pub fn chess_san<G: Game>(pos: &G, m: G::Move, config: &GameConfig) -> String {
    let uci = pos.format_move(m, config);
    let board = chess_board(&pos.to_fen());
    let (Some(from), Some(to)) = (uci.get(0..2), uci.get(2..4)) else {
        return uci;
    };
    let promo = uci.get(4..).unwrap_or("");
    let Some(&piece) = board.get(from) else {
        return uci;
    };
    let target = board.get(to).copied();
    let own = |c: char| c.is_ascii_uppercase() == piece.is_ascii_uppercase();
    let file_dist = (from.as_bytes()[0] as i32 - to.as_bytes()[0] as i32).abs();
    let mut san = String::new();
    if piece.eq_ignore_ascii_case(&'k') && (file_dist == 2 || target.is_some_and(own)) {
        san.push_str(if to.as_bytes()[0] > from.as_bytes()[0] {
            "O-O"
        } else {
            "O-O-O"
        });
    } else if piece.eq_ignore_ascii_case(&'p') {
        if file_dist != 0 {
            san.push(from.as_bytes()[0] as char);
            san.push('x');
        }
        san.push_str(to);
        if !promo.is_empty() {
            san.push('=');
            san.push_str(&promo.to_ascii_uppercase());
        }
    } else {
        san.push(piece.to_ascii_uppercase());
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        let rivals: Vec<String> = list
            .moves()
            .iter()
            .map(|&o| pos.format_move(o, config))
            .filter(|o| {
                o.get(2..4) == Some(to)
                    && o.get(0..2) != Some(from)
                    && o.get(0..2).and_then(|f| board.get(f)) == Some(&piece)
            })
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|o| o.as_bytes()[0] == from.as_bytes()[0]);
            let same_rank = rivals.iter().any(|o| o.as_bytes()[1] == from.as_bytes()[1]);
            if !same_file {
                san.push(from.as_bytes()[0] as char);
            } else if !same_rank {
                san.push(from.as_bytes()[1] as char);
            } else {
                san.push_str(from);
            }
        }
        if target.is_some() {
            san.push('x');
        }
        san.push_str(to);
    }
    let mut after = pos.clone();
    after.make_move(m);
    if after.in_check() {
        let mut list = G::MoveList::default();
        after.generate_moves(&mut list);
        san.push(if list.moves().is_empty() { '#' } else { '+' });
    }
    san
}

/// Square name to piece letter, from the first field of a chess FEN.
fn chess_board(fen: &str) -> HashMap<String, char> {
    let mut board = HashMap::new();
    let placement = fen.split_whitespace().next().unwrap_or("");
    for (i, rank) in placement.split('/').enumerate() {
        let rank_char = (b'8'.saturating_sub(i as u8)) as char;
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                file = file.saturating_add(d as u8);
            } else {
                if file < 8 {
                    board.insert(format!("{}{}", (b'a' + file) as char, rank_char), c);
                }
                file = file.saturating_add(1);
            }
        }
    }
    board
}

/// ICCS move text for xiangqi PGN: `h2e2` to `H2-E2`.
pub fn iccs_pgn(mv: &str) -> String {
    match (mv.get(0..2), mv.get(2..4)) {
        (Some(a), Some(b)) if mv.len() == 4 => {
            format!("{}-{}", a.to_ascii_uppercase(), b.to_ascii_uppercase())
        }
        _ => mv.to_owned(),
    }
}

/// Header values of one record.
pub struct PgnHeader<'a> {
    /// `Event` tag.
    pub event: &'a str,
    /// `Round` tag (game number).
    pub round: usize,
    /// Engine names by engine index.
    pub names: &'a [String],
    /// `Date` tag (`YYYY.MM.DD`).
    pub date: &'a str,
    /// Time control text for the `TimeControl` tag.
    pub time_control: &'a str,
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of one game (ends with a blank line).
pub fn write_pgn<G: Game>(rec: &GameRecord, header: &PgnHeader<'_>, config: &GameConfig) -> String {
    let mut out = String::new();
    let name = |seat: usize| {
        rec.seats
            .get(seat)
            .and_then(|&e| header.names.get(e))
            .map_or("?", String::as_str)
            .to_owned()
    };
    let result = if rec.seats.len() == 2 {
        rec.result_text()
    } else {
        "*".to_owned()
    };
    let _ = writeln!(out, "[Event \"{}\"]", quote(header.event));
    let _ = writeln!(out, "[Site \"sanqi match\"]");
    let _ = writeln!(out, "[Date \"{}\"]", header.date);
    let _ = writeln!(out, "[Round \"{}\"]", header.round);
    if rec.seats.len() == 2 {
        // White is Red in xiangqi (as cutechess and XiangQi Wizard write it).
        let _ = writeln!(out, "[White \"{}\"]", quote(&name(0)));
        let _ = writeln!(out, "[Black \"{}\"]", quote(&name(1)));
    } else {
        for seat in 0..rec.seats.len() {
            let _ = writeln!(out, "[Seat{} \"{}\"]", seat + 1, quote(&name(seat)));
        }
        let points: Vec<String> = rec.points.iter().map(|p| format!("{p:.3}")).collect();
        let _ = writeln!(out, "[Points \"{}\"]", points.join(" "));
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    if G::NAME != "chess" {
        let _ = writeln!(out, "[Variant \"{}\"]", G::NAME);
    } else if config.chess960 {
        let _ = writeln!(out, "[Variant \"Chess960\"]");
    }
    if G::NAME == "xiangqi" {
        let _ = writeln!(out, "[Format \"ICCS\"]");
    }
    let start_fen = G::startpos(config).to_fen();
    if rec.opening.fen != start_fen || G::NAME != "chess" || config.chess960 {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", quote(&rec.opening.fen));
    }
    let _ = writeln!(out, "[TimeControl \"{}\"]", quote(header.time_control));
    let _ = writeln!(
        out,
        "[PlyCount \"{}\"]",
        rec.opening.moves.len() + rec.moves.len()
    );
    let term = match rec.termination {
        super::referee::Termination::Rules => "normal",
        super::referee::Termination::Adjudication => "adjudication",
        super::referee::Termination::IllegalMove => "illegal move",
        super::referee::Termination::TimeForfeit => "time forfeit",
        super::referee::Termination::Crash => "abandoned",
        super::referee::Termination::Hang => "stalled connection",
    };
    let _ = writeln!(out, "[Termination \"{term}\"]");
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut pos = match G::from_fen(&rec.opening.fen, config) {
        Ok(p) => p,
        Err(_) => {
            let _ = writeln!(out, "{{{}}} {result}\n", rec.reason);
            return out;
        }
    };
    let players = pos.num_players();
    let first_mover = pos.side_to_move();
    let all: Vec<(usize, &String)> = rec
        .opening
        .moves
        .iter()
        .chain(rec.moves.iter())
        .enumerate()
        .collect();
    for (ply, text) in all {
        let Ok(m) = pos.parse_move(text, config) else {
            tokens.push(format!("{{unreadable move {text}}}"));
            break;
        };
        let stm = pos.side_to_move();
        let shown = match G::NAME {
            "chess" => chess_san(&pos, m, config),
            "xiangqi" => iccs_pgn(text),
            _ => text.clone(),
        };
        if stm == 0 || ply == 0 {
            let number = (ply + first_mover) / players.max(1) + 1;
            tokens.push(if stm == 0 || players != 2 {
                format!("{number}.")
            } else {
                format!("{number}...")
            });
        }
        tokens.push(shown);
        if ply + 1 == rec.opening.moves.len() {
            tokens.push("{end of opening}".to_owned());
        }
        pos.make_move(m);
    }
    tokens.push(format!("{{{}}}", rec.reason.replace(['{', '}'], "")));
    tokens.push(result);
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
