//! Game records as PGN. Each game says how its moves and tags are written
//! ([`Records::record_move`], [`Records::record_tags`]): chess in SAN, xiangqi in the ICCS format
//! (`[Format "ICCS"]`, moves `H2-E2`) as XiangQi Wizard and other Chinese tools read it, Chinese
//! checkers as a PGN-style move list (`[Variant "chinesecheckers"]`, one `SeatN` tag per player,
//! coordinate moves such as `k3k5`).

use std::fmt::Write as _;

use super::record::GameRecord;
use crate::game::Records;

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
pub fn write_pgn<G: Records>(
    rec: &GameRecord,
    header: &PgnHeader<'_>,
    config: &G::Config,
) -> String {
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
    for (tag, value) in G::record_tags(config) {
        let _ = writeln!(out, "[{tag} \"{}\"]", quote(&value));
    }
    if G::record_needs_fen(&rec.opening.fen, config) {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", quote(&rec.opening.fen));
    }
    let _ = writeln!(out, "[TimeControl \"{}\"]", quote(header.time_control));
    let _ = writeln!(
        out,
        "[PlyCount \"{}\"]",
        rec.opening.moves.len() + rec.moves.len()
    );
    let term = rec.termination.pgn_text();
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
    // Two-player FENs (chess, xiangqi) end with the full-move number, where the movetext's
    // numbering starts (PGN standard 8.2.2.2); other position strings start at 1.
    let first_number = if players == 2 {
        full_move_number(&rec.opening.fen)
    } else {
        1
    };
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
        let shown = pos.record_move(m, config);
        if stm == 0 || ply == 0 {
            let number = (ply + first_mover) / players.max(1) + first_number;
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

/// The full-move number of a six-field FEN (its last field), or 1.
fn full_move_number(fen: &str) -> usize {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.as_slice() {
        [_, _, _, _, _, n] => n.parse().ok().filter(|&n| n >= 1).unwrap_or(1),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::{Chess, ChessConfig};
    use crate::tournament::openings::Opening;
    use crate::tournament::record::Termination;

    fn record(fen: &str, moves: &[&str]) -> GameRecord {
        GameRecord {
            opening: Opening {
                fen: fen.to_owned(),
                moves: vec![],
            },
            seats: vec![0, 1],
            moves: moves.iter().map(|m| m.to_string()).collect(),
            winner: None,
            points: vec![0.5, 0.5],
            termination: Termination::Adjudication,
            offender: None,
            reason: "test".to_owned(),
            final_fen: String::new(),
        }
    }

    fn movetext(fen: &str, moves: &[&str]) -> String {
        let names = ["A".to_owned(), "B".to_owned()];
        let header = PgnHeader {
            event: "e",
            round: 1,
            names: &names,
            date: "2026.12.03",
            time_control: "-",
        };
        let text = write_pgn::<Chess>(&record(fen, moves), &header, &ChessConfig::default());
        text.split("\n\n")
            .nth(1)
            .unwrap_or_default()
            .replace('\n', " ")
    }

    /// The movetext's numbers continue from the FEN's full-move number, for White or Black to
    /// move first, as python-chess and cutechess write them.
    #[test]
    fn move_numbers_start_from_the_fens_full_move_number() {
        let white = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 5";
        assert!(
            movetext(white, &["d2d4", "d7d5", "g1f3"]).starts_with("5. d4 d5 6. Nf3 "),
            "{}",
            movetext(white, &["d2d4", "d7d5", "g1f3"])
        );
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 7";
        assert!(
            movetext(black, &["e7e5", "g1f3"]).starts_with("7... e5 8. Nf3 "),
            "{}",
            movetext(black, &["e7e5", "g1f3"])
        );
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(movetext(start, &["e2e4", "e7e5"]).starts_with("1. e4 e5 "));
        // A four-field position string starts at 1.
        assert_eq!(full_move_number("8/8/8/8/8/8/8/K1k5 w - -"), 1);
        assert_eq!(full_move_number("8/8/8/8/8/8/8/K1k5 w - - 0 0"), 1);
    }
}
