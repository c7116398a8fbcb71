//! The position string `<board> <players> <to-move> [<ply>]`, move tokens, and the `d` drawing.

use std::fmt::Write as _;

use super::cells::{Cell, CellSet, Triangle, NUM_CELLS, RANK_LENGTHS, TABLES};
use super::{ChineseCheckers, Move, Rules, MAX_PIECES_PER_PLAYER};
use crate::game::GameError;
use crate::game::Rules as _;

/// The 2-player start position.
pub const START_2: &str = "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0";
/// The 3-player start position.
pub const START_3: &str = "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0";
/// The 4-player start position.
pub const START_4: &str =
    "D/DD/DDD/DDDD/9EEEE/9EEE/9EE/9E/9/B9/BB9/BBB9/BBBB9/AAAA/AAA/AA/A ABDE A 0";
/// The 6-player start position.
pub const START_6: &str =
    "D/DD/DDD/DDDD/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/B8F/BB7FF/BBB6FFF/BBBB5FFFF/AAAA/AAA/AA/A ABCDEF A 0";

/// The start position string for `players` players (2, 3, 4 or 6; anything else gives 2).
pub fn startpos_string(players: u8) -> &'static str {
    match players {
        3 => START_3,
        4 => START_4,
        6 => START_6,
        _ => START_2,
    }
}

/// Index of the first cell of each rank (rank 1 first).
fn rank_start(rank_index: usize) -> usize {
    RANK_LENGTHS[..rank_index].iter().sum()
}

/// Parses a position string; errors name the problem.
pub fn parse(text: &str, rules: Rules) -> Result<ChineseCheckers, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(GameError::new(format!(
            "position string needs `<board> <players> <to-move> [<ply>]`, got {} field(s)",
            fields.len()
        )));
    }
    // Players.
    let players = fields[1];
    let mut homes: Vec<Triangle> = Vec::new();
    for ch in players.chars() {
        let t = Triangle::from_letter(ch).ok_or_else(|| {
            GameError::new(format!(
                "players `{players}`: `{ch}` is not a triangle letter A..F"
            ))
        })?;
        if homes.contains(&t) {
            return Err(GameError::new(format!(
                "players `{players}`: `{ch}` is listed twice"
            )));
        }
        homes.push(t);
    }
    if homes.is_empty() || homes.len() > 6 {
        return Err(GameError::new(format!(
            "players `{players}`: need 1 to 6 letters"
        )));
    }
    // Side to move.
    let to_move = fields[2];
    let side = match to_move.chars().collect::<Vec<_>>().as_slice() {
        [ch] => Triangle::from_letter(*ch)
            .and_then(|t| homes.iter().position(|&h| h == t))
            .ok_or_else(|| {
                GameError::new(format!(
                    "side to move `{to_move}` is not one of the players `{players}`"
                ))
            })?,
        _ => {
            return Err(GameError::new(format!(
                "side to move `{to_move}` must be one player letter"
            )))
        }
    };
    // Ply.
    let ply = match fields.get(3) {
        None => 0,
        Some(p) => p
            .parse::<u32>()
            .map_err(|_| GameError::new(format!("ply `{p}` is not a non-negative number")))?,
    };
    // Board.
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 17 {
        return Err(GameError::new(format!(
            "board has {} rank(s), expected 17 separated by `/`",
            ranks.len()
        )));
    }
    let mut pieces: [CellSet; 6] = [0; 6];
    let mut counts = [0usize; 6];
    for (k, rank_text) in ranks.iter().enumerate() {
        let rank_index = 16 - k; // the first rank written is rank 17
        let rank = rank_index + 1;
        let len = RANK_LENGTHS[rank_index];
        let start = rank_start(rank_index);
        let mut filled = 0usize;
        let mut chars = rank_text.chars().peekable();
        if rank_text.is_empty() {
            return Err(GameError::new(format!("rank {rank} is empty")));
        }
        while let Some(ch) = chars.next() {
            if ch.is_ascii_digit() {
                let mut digits = String::from(ch);
                while let Some(&c) = chars.peek().filter(|c| c.is_ascii_digit()) {
                    digits.push(c);
                    chars.next();
                }
                let run = match digits.parse::<usize>() {
                    Ok(n @ 1..=13) if !digits.starts_with('0') => n,
                    _ => {
                        return Err(GameError::new(format!(
                            "rank {rank}: an empty run must be 1..13, got `{digits}`"
                        )))
                    }
                };
                filled += run;
                if filled > len {
                    return Err(GameError::new(format!(
                        "rank {rank} `{rank_text}` describes more than its {len} cell(s)"
                    )));
                }
            } else if let Some(t) = Triangle::from_letter(ch) {
                let side_of = homes.iter().position(|&h| h == t).ok_or_else(|| {
                    GameError::new(format!(
                        "rank {rank}: piece `{ch}` belongs to no listed player (`{players}`)"
                    ))
                })?;
                if filled >= len {
                    return Err(GameError::new(format!(
                        "rank {rank} `{rank_text}` describes more than its {len} cell(s)"
                    )));
                }
                pieces[side_of] |= 1u128 << (start + filled);
                counts[side_of] += 1;
                filled += 1;
            } else {
                return Err(GameError::new(format!(
                    "rank {rank}: unexpected character `{ch}` (pieces are A..F, empty runs 1..13)"
                )));
            }
        }
        if filled < len {
            return Err(GameError::new(format!(
                "rank {rank} `{rank_text}` describes {filled} cell(s), it has {len}"
            )));
        }
    }
    for (i, &n) in counts.iter().enumerate().take(homes.len()) {
        if n > MAX_PIECES_PER_PLAYER {
            return Err(GameError::new(format!(
                "player {} has {n} pieces, at most {MAX_PIECES_PER_PLAYER}",
                homes[i].letter()
            )));
        }
    }
    Ok(ChineseCheckers::from_parts(
        &homes, pieces, side, ply, rules,
    ))
}

/// The letter of the piece on cell index `c`, if any.
fn piece_letter(pos: &ChineseCheckers, c: usize) -> Option<char> {
    (0..pos.num_players as usize)
        .find(|&i| pos.pieces[i] & (1u128 << c) != 0)
        .map(|i| pos.homes[i].letter())
}

/// Writes the canonical position string (ply always written).
pub fn write(pos: &ChineseCheckers) -> String {
    let mut board = String::new();
    for rank_index in (0..17).rev() {
        let start = rank_start(rank_index);
        let mut run = 0;
        for c in start..start + RANK_LENGTHS[rank_index] {
            match piece_letter(pos, c) {
                Some(l) => {
                    if run > 0 {
                        let _ = write!(board, "{run}");
                        run = 0;
                    }
                    board.push(l);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            let _ = write!(board, "{run}");
        }
        if rank_index > 0 {
            board.push('/');
        }
    }
    format!(
        "{board} {} {} {}",
        pos.players(),
        pos.homes[pos.side as usize].letter(),
        pos.ply
    )
}

/// Draws the star with ranks as rows (17 on top), staggered so that neighbours touch.
pub fn draw(pos: &ChineseCheckers) -> String {
    let mut out = String::new();
    // Screen column of (f, r) is 2f + r: E is two columns right, NE one up-right.
    let col = |c: usize| 2 * TABLES.file[c] as i32 + TABLES.rank[c] as i32;
    let min_col = (0..NUM_CELLS).map(col).min().unwrap_or(0);
    for rank_index in (0..17).rev() {
        let start = rank_start(rank_index);
        let mut line = format!("{:>3}  ", rank_index + 1);
        let mut at = min_col;
        for c in start..start + RANK_LENGTHS[rank_index] {
            while at < col(c) {
                line.push(' ');
                at += 1;
            }
            line.push(piece_letter(pos, c).unwrap_or('.'));
            at += 1;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Fen: {}", write(pos));
    let _ = writeln!(out, "Key: {:016X}", pos.hash);
    let _ = writeln!(
        out,
        "Players: {}  To move: {}  Rules: {}",
        pos.players(),
        pos.homes[pos.side as usize].letter(),
        pos.rules
    );
    match pos.winner() {
        Some(w) => {
            let _ = write!(out, "Winner: {}", pos.homes[w].letter());
        }
        None => {
            let _ = write!(out, "Winner: none");
        }
    }
    out
}

/// Reads a move token (`k3k5`, `0000`) and matches it against the legal moves.
pub fn parse_move(pos: &ChineseCheckers, text: &str) -> Result<Move, GameError> {
    let text = text.trim();
    let mut list = <ChineseCheckers as crate::game::Rules>::MoveList::default();
    pos.generate_moves(&mut list);
    if text == "0000" {
        if list.contains(&Move::PASS) {
            return Ok(Move::PASS);
        }
        return Err(GameError::new(if pos.winner().is_some() {
            "illegal move 0000: the game is over".to_string()
        } else {
            "illegal move 0000: a side may pass only when it has no other move".to_string()
        }));
    }
    // Split after the first cell: a letter, then digits, then a letter.
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .ok_or_else(|| {
            GameError::new(format!(
                "bad move `{text}`: expected <from><to> like `k3k5`, or `0000`"
            ))
        })?;
    let (a, b) = text.split_at(split);
    let from: Cell = a
        .parse()
        .map_err(|e: GameError| GameError::new(format!("bad move `{text}`: {e}")))?;
    let to: Cell = b
        .parse()
        .map_err(|e: GameError| GameError::new(format!("bad move `{text}`: {e}")))?;
    let m = Move::new(from, to);
    if list.contains(&m) {
        return Ok(m);
    }
    let reason = if pos.winner().is_some() {
        "the game is over".to_string()
    } else {
        match pos.side_at(from) {
            None => format!("no piece on {from}"),
            Some(s) if s != pos.side as usize => format!(
                "the piece on {from} belongs to {}, {} is to move",
                pos.homes[s].letter(),
                pos.homes[pos.side as usize].letter()
            ),
            Some(_) => format!("the piece on {from} cannot reach {to}"),
        }
    };
    Err(GameError::new(format!("illegal move {text}: {reason}")))
}
