//! ICCS move text: `h2e2` (files `a`..`i`, ranks `0`..`9`, Red at 0). With the
//! Fairy-Stockfish convention (`ranks_from_one`), ranks are written `1`..`10`: `h3e3`, `a10a9`.

use super::board::{file_of, rank_of, square, Square};
use super::{movegen, Move, Xiangqi, XiangqiMoveList};
use crate::game::GameError;

/// The ICCS name of a square (ranks 0-9).
pub(super) fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + file_of(s)) as char, rank_of(s))
}

fn write_square(out: &mut String, s: Square, ranks_from_one: bool) {
    out.push((b'a' + file_of(s)) as char);
    let r = rank_of(s) + u8::from(ranks_from_one);
    out.push_str(&r.to_string());
}

/// Writes a move.
pub(super) fn format_move(m: Move, ranks_from_one: bool) -> String {
    let mut out = String::with_capacity(6);
    write_square(&mut out, m.from(), ranks_from_one);
    write_square(&mut out, m.to(), ranks_from_one);
    out
}

/// Reads one square from the front of `text`; returns it and the rest.
fn read_square(text: &str, ranks_from_one: bool) -> Option<(Square, &str)> {
    let bytes = text.as_bytes();
    let f = bytes.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&f) {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    // Ranks 0-9 have one digit; ranks 1-10 one or two ("10").
    let len = if ranks_from_one && digits >= 2 && bytes.get(1..3) == Some(b"10") {
        2
    } else if digits >= 1 {
        1
    } else {
        return None;
    };
    let num: u8 = text.get(1..1 + len)?.parse().ok()?;
    let rank = if ranks_from_one {
        num.checked_sub(1)?
    } else {
        num
    };
    if rank > 9 {
        return None;
    }
    Some((square(f - b'a', rank), text.get(1 + len..)?))
}

/// Reads a move token and matches it against the legal moves.
pub(super) fn parse_move(
    pos: &Xiangqi,
    text: &str,
    ranks_from_one: bool,
) -> Result<Move, GameError> {
    let token = text.trim();
    let convention = if ranks_from_one {
        "ranks 1-10"
    } else {
        "ranks 0-9"
    };
    let malformed = || {
        GameError::new(format!(
            "malformed move '{token}' (expected ICCS like {}, {convention})",
            if ranks_from_one { "h3e3" } else { "h2e2" }
        ))
    };
    let (from, rest) = read_square(token, ranks_from_one).ok_or_else(malformed)?;
    let (to, rest) = read_square(rest, ranks_from_one).ok_or_else(malformed)?;
    if !rest.is_empty() {
        return Err(malformed());
    }
    let mut list = XiangqiMoveList::new();
    movegen::generate::<true>(pos, &mut list);
    let m = Move::new(from, to);
    if list.contains(&m) {
        return Ok(m);
    }
    let piece = pos.board[from as usize];
    let why = if piece == super::board::EMPTY {
        "no piece on its origin square".to_string()
    } else if super::board::side_of(piece) != pos.side {
        "the piece on its origin square is not the side to move's".to_string()
    } else {
        "the piece cannot move there or the move leaves the general in check".to_string()
    };
    Err(GameError::new(format!("illegal move '{token}': {why}")))
}
