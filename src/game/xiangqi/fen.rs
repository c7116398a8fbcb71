//! Reading and writing xiangqi FEN.
//!
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`: ten ranks from
//! Black's back rank (rank 9) down to Red's (rank 0), upper case Red. Letters `K A B N R C P`,
//! with `E` (elephant) and `H` (horse) accepted; side `w` or `r` for Red, `b` for Black. The two
//! chess fields (castling, en passant) must be `-`, the half-move clock (plies since the last capture, for the 120-ply
//! limit) and the move number are optional. Writing uses `w`/`b` and `B`/`N`.
//!
//! Positions that cannot arise in a game are rejected with a message naming the problem.

use super::board::{
    self, advisor_square, color_flag, elephant_square, in_palace, pawn_square, side_of, slot_range,
    square, ADVISOR, CANNON, ELEPHANT, EMPTY, HORSE, KING, OFF, PAWN, ROOK,
};
use super::{iccs, Xiangqi};
use crate::game::GameError;

const SIDE_NAMES: [&str; 2] = ["Red", "Black"];

fn kind_name(kind: u8) -> &'static str {
    match kind {
        KING => "general",
        ADVISOR => "advisor",
        ELEPHANT => "elephant",
        HORSE => "horse",
        ROOK => "chariot",
        CANNON => "cannon",
        _ => "soldier",
    }
}

/// The FEN letter of a piece code (`B` for elephants, `N` for horses).
pub(super) fn piece_char(piece: u8) -> char {
    let c = match piece & 7 {
        KING => 'k',
        ADVISOR => 'a',
        ELEPHANT => 'b',
        HORSE => 'n',
        ROOK => 'r',
        CANNON => 'c',
        _ => 'p',
    };
    if side_of(piece) == 0 {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

fn piece_from_char(c: char) -> Option<u8> {
    let kind = match c.to_ascii_lowercase() {
        'k' => KING,
        'a' => ADVISOR,
        'b' | 'e' => ELEPHANT,
        'n' | 'h' => HORSE,
        'r' => ROOK,
        'c' => CANNON,
        'p' => PAWN,
        _ => return None,
    };
    let side = if c.is_ascii_uppercase() { 0 } else { 1 };
    Some(color_flag(side) | kind)
}

/// A field as an error message quotes it: at most 20 characters (a fuzzer's field can be
/// thousands long).
fn clip(field: &str) -> String {
    if field.chars().count() > 20 {
        let head: String = field.chars().take(20).collect();
        format!("{head}...")
    } else {
        field.to_string()
    }
}

/// A number field of the FEN (`what` names it in the message), `default` when absent.
fn number_field<T: std::str::FromStr>(
    field: Option<&str>,
    default: T,
    what: &str,
) -> Result<T, GameError> {
    match field {
        None => Ok(default),
        Some(t) => t.parse::<T>().map_err(|_| {
            GameError::new(format!(
                "bad {what} '{}' in FEN (expected a number)",
                clip(t)
            ))
        }),
    }
}

/// The fields of a FEN after the placement: side to move, half-move clock, move number.
fn parse_fields<'a>(
    fen: &str,
    mut fields: impl Iterator<Item = &'a str>,
) -> Result<(usize, u16, u32), GameError> {
    let side_field = fields
        .next()
        .ok_or_else(|| GameError::new(format!("FEN '{fen}' has no side to move")))?;
    let side = match side_field {
        "w" | "W" | "r" | "R" => 0,
        "b" | "B" => 1,
        other => {
            return Err(GameError::new(format!(
                "bad side to move '{other}' in FEN (expected w, r or b)"
            )))
        }
    };
    // The castling and en passant fields of chess: xiangqi has neither, so each must be `-`
    // (or absent, with everything after it).
    for name in ["castling", "en passant"] {
        match fields.next() {
            None | Some("-") => {}
            Some(t) => {
                return Err(GameError::new(format!(
                    "bad {name} field '{}' in FEN (xiangqi has none: expected '-')",
                    clip(t)
                )))
            }
        }
    }
    let rule60 = number_field(fields.next(), 0, "half-move clock")?;
    let fullmove = number_field(fields.next(), 1, "move number")?;
    if let Some(extra) = fields.next() {
        return Err(GameError::new(format!(
            "unexpected '{}' after the FEN",
            clip(extra)
        )));
    }
    Ok((side, rule60, fullmove))
}

/// The board of a FEN's placement field: ten ranks of nine files, from rank 9 down.
fn parse_placement(placement: &str) -> Result<[u8; 256], GameError> {
    let mut b = [OFF; 256];
    for rank in 0..10 {
        for file in 0..9 {
            b[square(file, rank) as usize] = EMPTY;
        }
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 10 {
        return Err(GameError::new(format!(
            "FEN board has {} ranks, expected 10",
            ranks.len()
        )));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file: u32 = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(GameError::new(format!(
                        "FEN rank {rank} ('{text}') has a 0"
                    )));
                }
                file += d;
            } else if let Some(p) = piece_from_char(c) {
                if file < 9 {
                    b[square(file as u8, rank) as usize] = p;
                }
                file += 1;
            } else {
                return Err(GameError::new(format!(
                    "bad letter '{c}' in FEN rank {rank} ('{text}')"
                )));
            }
            if file > 9 {
                return Err(GameError::new(format!(
                    "FEN rank {rank} ('{text}') is longer than 9 files"
                )));
            }
        }
        if file != 9 {
            return Err(GameError::new(format!(
                "FEN rank {rank} ('{text}') has {file} files, expected 9"
            )));
        }
    }
    Ok(b)
}

/// The slot lists of a board: each square's slot and each side's piece squares by slot, every
/// piece checked to stand on a square it can reach, within its kind's count, and both generals
/// present.
fn slot_lists(b: &[u8; 256]) -> Result<([u8; 256], [[u8; board::SLOTS]; 2]), GameError> {
    let mut slot = [0u8; 256];
    let mut pieces = [[0u8; board::SLOTS]; 2];
    let mut count = [[0usize; 8]; 2];
    for rank in 0..10 {
        for file in 0..9 {
            let s = square(file, rank);
            let p = b[s as usize];
            if p == EMPTY {
                continue;
            }
            let side = side_of(p);
            let kind = p & 7;
            let ok = match kind {
                KING => in_palace(side, s),
                ADVISOR => advisor_square(side, s),
                ELEPHANT => elephant_square(side, s),
                PAWN => pawn_square(side, s),
                _ => true,
            };
            if !ok {
                return Err(GameError::new(format!(
                    "{} {} on {} is on a square it can never reach",
                    SIDE_NAMES[side],
                    kind_name(kind),
                    iccs::square_name(s)
                )));
            }
            let (lo, hi) = slot_range(kind);
            let n = count[side][kind as usize];
            if lo + n >= hi {
                return Err(GameError::new(format!(
                    "{} has more than {} {}{}",
                    SIDE_NAMES[side],
                    hi - lo,
                    kind_name(kind),
                    if hi - lo > 1 { "s" } else { "" }
                )));
            }
            count[side][kind as usize] += 1;
            pieces[side][lo + n] = s;
            slot[s as usize] = (lo + n) as u8;
        }
    }
    for (side, name) in SIDE_NAMES.iter().enumerate() {
        if count[side][KING as usize] == 0 {
            return Err(GameError::new(format!("{name} has no general")));
        }
    }
    Ok((slot, pieces))
}

/// Soldiers on a start file before the river: at most one per file (a soldier never changes
/// file before crossing and never moves back).
fn check_soldier_files(b: &[u8; 256]) -> Result<(), GameError> {
    for (side, name) in SIDE_NAMES.iter().enumerate() {
        for file in (0..9).step_by(2) {
            let (r3, r4) = if side == 0 { (3, 4) } else { (6, 5) };
            let pawn = color_flag(side) | PAWN;
            if b[square(file, r3) as usize] == pawn && b[square(file, r4) as usize] == pawn {
                return Err(GameError::new(format!(
                    "two {name} soldiers on file {} before the river",
                    (b'a' + file) as char
                )));
            }
        }
    }
    Ok(())
}

/// The generals must not face each other, nor the side that just moved be in check.
fn check_generals(pos: &Xiangqi) -> Result<(), GameError> {
    let side = pos.side;
    let them = side ^ 1;
    let (rk, bk) = (pos.king_square(0), pos.king_square(1));
    if board::file_of(rk) == board::file_of(bk) {
        let mut s = rk + 16;
        while s != bk && pos.board[s as usize] == EMPTY {
            s += 16;
        }
        if s == bk {
            return Err(GameError::new(format!(
                "the generals face each other on file {}",
                (b'a' + board::file_of(rk)) as char
            )));
        }
    }
    if board::attacked(&pos.board, pos.king_square(them), them) {
        return Err(GameError::new(format!(
            "{} is in check but it is {} to move",
            SIDE_NAMES[them], SIDE_NAMES[side]
        )));
    }
    Ok(())
}

/// Parses a FEN into a position with an empty history.
pub(super) fn parse(fen: &str) -> Result<Xiangqi, GameError> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or_else(|| GameError::new("empty FEN"))?;
    let (side, rule60, fullmove) = parse_fields(fen, fields)?;
    let b = parse_placement(placement)?;
    let (slot, pieces) = slot_lists(&b)?;
    check_soldier_files(&b)?;
    let pos = Xiangqi::from_parts(b, slot, pieces, side, rule60, fullmove);
    check_generals(&pos)?;
    Ok(pos)
}

/// Writes the FEN of a position.
pub(super) fn write(pos: &Xiangqi) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let p = pos.board[square(file, rank) as usize];
            if p == EMPTY {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(piece_char(p));
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let plies = pos.game_ply() + pos.root_side;
    let fullmove = pos.root_fullmove as usize + plies / 2;
    out.push_str(if pos.side == 0 { " w" } else { " b" });
    out.push_str(&format!(" - - {} {}", pos.st.rule60, fullmove));
    out
}
