//! Openings: positions read from an EPD or FEN file (one a line, optionally followed by
//! `moves <m>...`), or random openings of N plies played from the start position.

use crate::game::{Evaluation, MoveBuffer, Notation};

/// A start position for a pair (or cycle) of games: a position string and moves played from it
/// (canonical notation of sanqi's rules code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position string the game starts from.
    pub fen: String,
    /// Moves already played from `fen` (part of the opening, not of the engines' play).
    pub moves: Vec<String>,
}

/// A small deterministic random generator (xorshift64*), so that a seed repeats a match.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Shuffles a slice (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Parses one line of an opening file into a validated opening.
///
/// Accepted: a full position string; a chess EPD (four fields, then `;`-separated opcodes, given
/// move counters `0 1`); either followed by `moves <m>...`.
pub fn parse_opening_line<G: Notation>(line: &str, config: &G::Config) -> Result<Opening, String> {
    let (pos_text, moves_text) = match line.split_once(" moves ") {
        Some((p, m)) => (p.trim(), m.trim()),
        None => (line.trim(), ""),
    };
    let candidates = {
        let mut c = vec![pos_text.to_owned()];
        let without_ops = pos_text.split(';').next().unwrap_or("").trim();
        let fields: Vec<&str> = without_ops.split_whitespace().collect();
        if fields.len() >= 4 {
            // EPD: board, side, castling, en passant; opcodes (`bm`, `id`, `c0`...) dropped.
            c.push(format!("{} 0 1", fields[..4].join(" ")));
        }
        c
    };
    let mut last_err = String::new();
    for text in candidates {
        match G::from_fen(&text, config) {
            Ok(start) => {
                let fen = start.to_fen();
                let mut pos = start;
                let mut moves = Vec::new();
                for token in moves_text.split_whitespace() {
                    let m = pos
                        .parse_move(token, config)
                        .map_err(|e| format!("opening move `{token}`: {e}"))?;
                    moves.push(pos.format_move(m, config));
                    pos.make_move(m);
                }
                if pos.outcome().is_some() {
                    return Err(format!("opening `{line}` is already decided"));
                }
                return Ok(Opening { fen, moves });
            }
            Err(e) => last_err = e.0,
        }
    }
    Err(format!("bad opening `{line}`: {last_err}"))
}

/// Reads every opening of a file (blank lines and `#` comments skipped).
pub fn load_openings<G: Notation>(text: &str, config: &G::Config) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(
            parse_opening_line::<G>(line, config).map_err(|e| format!("line {}: {e}", i + 1))?,
        );
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// Plays `plies` random legal moves on `pos`, each the one of index `below(number of moves)`,
/// and gives them as protocol text. `None` (`pos` then somewhere on the way) when a position on
/// the way has no move or a move ends the game.
pub fn random_moves<G: Notation>(
    pos: &mut G,
    plies: usize,
    config: &G::Config,
    mut below: impl FnMut(usize) -> usize,
) -> Option<Vec<String>> {
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        let legal = list.moves();
        if legal.is_empty() {
            return None;
        }
        let &m = legal.get(below(legal.len()))?;
        moves.push(pos.format_move(m, config));
        pos.make_move(m);
        if pos.outcome().is_some() {
            return None;
        }
    }
    Some(moves)
}

/// A random opening of `plies` legal moves from `start` that does not end the game (nor leave the
/// side to move without a move) and, with `balance = Some(cp)` in a two-player game, whose static
/// evaluation (sanqi's own `Evaluation::evaluate`) lies within `±cp`. Gives up after 1000 tries (the
/// start position itself then).
pub fn random_opening<G: Notation + Evaluation>(
    start: &G,
    plies: usize,
    balance: Option<i32>,
    rng: &mut Rng,
    config: &G::Config,
) -> Opening {
    let fen = start.to_fen();
    'tries: for _ in 0..1000 {
        let mut pos = start.clone();
        let Some(moves) = random_moves(&mut pos, plies, config, |n| rng.below(n)) else {
            continue 'tries;
        };
        if let Some(cp) = balance {
            if pos.num_players() == 2 && pos.evaluate().abs() > cp {
                continue 'tries;
            }
        }
        return Opening { fen, moves };
    }
    Opening {
        fen,
        moves: Vec::new(),
    }
}
