//! FEN reading (with X-FEN and Shredder-FEN castling fields) and writing.

use super::attacks::PAWN as PAWN_ATTACKS;
use super::bitboard::{bit, file_of, parse_square, rank_of, square_name, Squares, RANK_1, RANK_8};
use super::board::{castle_targets, CastleInfo, Chess};
use super::types::*;
use crate::game::GameError;

fn side_name(side: usize) -> &'static str {
    if side == WHITE {
        "white"
    } else {
        "black"
    }
}

fn piece_from_char(c: char) -> Option<u8> {
    let kind = match c.to_ascii_lowercase() {
        'p' => PAWN,
        'n' => KNIGHT,
        'b' => BISHOP,
        'r' => ROOK,
        'q' => QUEEN,
        'k' => KING,
        _ => return None,
    };
    let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
    Some(piece(side, kind))
}

fn err(msg: impl Into<String>) -> GameError {
    GameError::new(format!("invalid FEN: {}", msg.into()))
}

/// Squares with a higher index than `sq`.
fn squares_above(sq: usize) -> u64 {
    if sq >= 63 {
        0
    } else {
        u64::MAX << (sq + 1)
    }
}

/// Squares of one rank from `a` to `b` inclusive (any order).
fn span(a: usize, b: usize) -> u64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    (lo..=hi).fold(0, |acc, sq| acc | bit(sq))
}

/// Parses a FEN. `chess960` only chooses how castling is written back.
pub(crate) fn parse(fen: &str, chess960: bool) -> Result<Chess, GameError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(err(format!(
            "{} field(s) in '{}'; expected at least 4 (board, side to move, castling, en passant)",
            fields.len(),
            fen.trim()
        )));
    }
    if fields.len() > 6 {
        return Err(err(format!("{} fields; expected at most 6", fields.len())));
    }
    let mut pos = Chess::empty();
    pos.chess960 = chess960;
    parse_board(&mut pos, fields[0])?;
    check_material(&pos)?;

    pos.stm = match fields[1] {
        "w" | "W" => WHITE as u8,
        "b" | "B" => BLACK as u8,
        other => {
            return Err(err(format!(
                "side to move '{other}' is neither 'w' nor 'b'"
            )))
        }
    };
    parse_castling(&mut pos, fields[2])?;
    parse_ep(&mut pos, fields[3])?;
    if let Some(text) = fields.get(4) {
        pos.halfmove = text.parse::<u32>().map_err(|_| {
            err(format!(
                "halfmove clock '{text}' is not a non-negative number"
            ))
        })?;
    }
    if let Some(text) = fields.get(5) {
        let n = text.parse::<u32>().map_err(|_| {
            err(format!(
                "fullmove number '{text}' is not a non-negative number"
            ))
        })?;
        pos.fullmove = n.max(1);
    }

    let us = pos.side();
    let them = us ^ 1;
    if pos.attacked_by(pos.king_square(them), us, pos.occupied()) {
        return Err(err(format!(
            "the side not to move ({}) is in check",
            side_name(them)
        )));
    }
    pos.checkers = pos.compute_checkers();
    if pos.checkers.count_ones() > 2 {
        return Err(err(format!(
            "the {} king is attacked by {} pieces at once",
            side_name(us),
            pos.checkers.count_ones()
        )));
    }
    pos.hash = pos.compute_hash();
    Ok(pos)
}

fn parse_board(pos: &mut Chess, text: &str) -> Result<(), GameError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(format!(
            "board '{text}' has {} ranks; expected 8",
            ranks.len()
        )));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(err(format!("digit '{c}' in rank {} is not 1-8", rank + 1)));
                }
                file += d as usize;
            } else {
                let p = piece_from_char(c)
                    .ok_or_else(|| err(format!("bad piece letter '{c}' in rank {}", rank + 1)))?;
                if file < 8 {
                    pos.put(rank * 8 + file, p);
                }
                file += 1;
            }
            if file > 8 {
                return Err(err(format!(
                    "rank {} ('{rank_text}') has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} ('{rank_text}') has {file} squares; expected 8",
                rank + 1
            )));
        }
    }
    Ok(())
}

fn check_material(pos: &Chess) -> Result<(), GameError> {
    for side in [WHITE, BLACK] {
        match pos.pieces(side, KING).count_ones() {
            0 => return Err(err(format!("no {} king", side_name(side)))),
            1 => {}
            n => return Err(err(format!("{n} {} kings", side_name(side)))),
        }
        let pawns = pos.pieces(side, PAWN).count_ones();
        if pawns > 8 {
            return Err(err(format!("{} has {pawns} pawns", side_name(side))));
        }
        let all = pos.by_side[side].count_ones();
        if all > 16 {
            return Err(err(format!("{} has {all} pieces", side_name(side))));
        }
    }
    let misplaced = pos.by_kind[PAWN] & (RANK_1 | RANK_8);
    if misplaced != 0 {
        return Err(err(format!(
            "pawn on {} (first or eighth rank)",
            square_name(misplaced.trailing_zeros() as usize)
        )));
    }
    Ok(())
}

fn parse_castling(pos: &mut Chess, text: &str) -> Result<(), GameError> {
    let mut info = CastleInfo::default();
    if text != "-" {
        for c in text.chars() {
            let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
            let back = if side == WHITE { 0 } else { 56 };
            let back_rank = RANK_1 << back;
            let ksq = pos.king_square(side);
            if !c.is_ascii_alphabetic() {
                return Err(err(format!("bad castling letter '{c}' in '{text}'")));
            }
            if rank_of(ksq) != rank_of(back) {
                return Err(err(format!(
                    "castling right '{c}' but the {} king is on {}, not on its first rank",
                    side_name(side),
                    square_name(ksq)
                )));
            }
            let rooks = pos.pieces(side, ROOK) & back_rank;
            let rsq = match c.to_ascii_lowercase() {
                'k' => {
                    let beyond = rooks & squares_above(ksq);
                    if beyond == 0 {
                        return Err(err(format!(
                            "castling right '{c}' without a {} rook on the king side",
                            side_name(side)
                        )));
                    }
                    63 - beyond.leading_zeros() as usize
                }
                'q' => {
                    let below = rooks & (bit(ksq) - 1);
                    if below == 0 {
                        return Err(err(format!(
                            "castling right '{c}' without a {} rook on the queen side",
                            side_name(side)
                        )));
                    }
                    below.trailing_zeros() as usize
                }
                f @ 'a'..='h' => {
                    let sq = back + (f as usize - 'a' as usize);
                    if sq == ksq || rooks & bit(sq) == 0 {
                        return Err(err(format!(
                            "castling right '{c}' without a {} rook on {}",
                            side_name(side),
                            square_name(sq)
                        )));
                    }
                    sq
                }
                _ => return Err(err(format!("bad castling letter '{c}' in '{text}'"))),
            };
            let right = 2 * side + usize::from(rsq < ksq);
            if pos.castling & (1 << right) != 0 {
                return Err(err(format!(
                    "castling field '{text}' gives {} two {}-side rights",
                    side_name(side),
                    if rsq < ksq { "queen" } else { "king" }
                )));
            }
            pos.castling |= 1 << right;
            info.rook[right] = rsq as u8;
            info.king[right] = ksq as u8;
        }
    }
    for right in 0..4 {
        if pos.castling & (1 << right) == 0 {
            continue;
        }
        let ksq = info.king[right] as usize;
        let rsq = info.rook[right] as usize;
        let (kto, rto) = castle_targets(ksq, rsq);
        info.king_path[right] = span(ksq, kto);
        info.empty[right] = (span(ksq, kto) | span(rsq, rto)) & !bit(ksq) & !bit(rsq);
        let side_rights = 3u8 << (2 * (right / 2));
        info.mask[ksq] |= side_rights;
        info.mask[rsq] |= 1 << right;
    }
    *pos.castle = info;
    Ok(())
}

fn parse_ep(pos: &mut Chess, text: &str) -> Result<(), GameError> {
    if text == "-" {
        return Ok(());
    }
    let sq = parse_square(text)
        .ok_or_else(|| err(format!("en passant field '{text}' is not a square")))?;
    let us = pos.side();
    let them = us ^ 1;
    let rank = if us == WHITE { 5 } else { 2 };
    if rank_of(sq) != rank {
        return Err(err(format!(
            "en passant square {text} cannot be: with {} to move it must be on rank {}",
            side_name(us),
            rank + 1
        )));
    }
    // The pawn that just moved two squares, and the square it came from.
    let (pushed, origin) = if us == WHITE {
        (sq - 8, sq + 8)
    } else {
        (sq + 8, sq - 8)
    };
    if pos.piece_on(pushed) != piece(them, PAWN) {
        return Err(err(format!(
            "en passant square {text} cannot be: no {} pawn on {}",
            side_name(them),
            square_name(pushed)
        )));
    }
    if pos.piece_on(sq) != NO_PIECE || pos.piece_on(origin) != NO_PIECE {
        return Err(err(format!(
            "en passant square {text} cannot be: {} and {} must be empty",
            square_name(sq),
            square_name(origin)
        )));
    }
    // Kept only when a pawn could take (as Stockfish does), so equal positions hash equally.
    if PAWN_ATTACKS[them][sq] & pos.pieces(us, PAWN) != 0 {
        pos.ep = sq as u8;
    }
    Ok(())
}

/// Writes the FEN (Shredder-FEN castling letters in Chess960 mode, X-FEN otherwise).
pub(crate) fn write(pos: &Chess) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut gap = 0;
        for file in 0..8 {
            let p = pos.piece_on(rank * 8 + file);
            if p == NO_PIECE {
                gap += 1;
            } else {
                if gap > 0 {
                    s.push(char::from(b'0' + gap));
                    gap = 0;
                }
                s.push(piece_char(p));
            }
        }
        if gap > 0 {
            s.push(char::from(b'0' + gap));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.side() == WHITE { 'w' } else { 'b' });
    s.push(' ');
    s.push_str(&castling_text(pos));
    s.push(' ');
    if pos.ep == NO_SQUARE {
        s.push('-');
    } else {
        s.push_str(&square_name(pos.ep as usize));
    }
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}

fn castling_text(pos: &Chess) -> String {
    let mut s = String::new();
    for right in 0..4 {
        if pos.castling & (1 << right) == 0 {
            continue;
        }
        let side = right / 2;
        let rsq = pos.castle.rook[right] as usize;
        let ksq = pos.castle.king[right] as usize;
        let back_rooks = pos.pieces(side, ROOK) & (RANK_1 << (56 * side));
        let outer = if rsq > ksq {
            back_rooks & squares_above(rsq)
        } else {
            back_rooks & (bit(rsq) - 1)
        };
        let letter = if pos.chess960 || outer != 0 {
            (b'a' + file_of(rsq) as u8) as char
        } else if rsq > ksq {
            'k'
        } else {
            'q'
        };
        s.push(if side == WHITE {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The squares of a bitboard, named (for `display`).
pub(crate) fn square_list(b: u64) -> String {
    Squares(b).map(square_name).collect::<Vec<_>>().join(" ")
}
