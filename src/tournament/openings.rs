//! Openings: positions read from an EPD or FEN file (one a line, optionally followed by
//! `moves <m>...`), or random openings of N plies played from the start position.

use crate::game::{Evaluation, MoveBuffer, Notation, Records};

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

/// A move token as a record writes it, for comparison: check and annotation marks, `=` of
/// promotions and `e.p.` dropped, castling with letter O.
fn normalise_record_move(token: &str) -> String {
    token
        .trim_end_matches(['+', '#', '!', '?'])
        .replace("e.p.", "")
        .replace('=', "")
        .replace('0', "O")
}

/// The legal move of `pos` that `token` names: in the record notation ([`Records::record_move`],
/// SAN for chess) or in protocol form.
pub fn parse_record_move<G: Records>(
    pos: &G,
    token: &str,
    config: &G::Config,
) -> Result<G::Move, String> {
    if let Ok(m) = pos.parse_move(token, config) {
        return Ok(m);
    }
    let want = normalise_record_move(token);
    let mut list = G::MoveList::default();
    pos.generate_moves(&mut list);
    list.moves()
        .iter()
        .copied()
        .find(|&m| normalise_record_move(&pos.record_move(m, config)) == want)
        .ok_or_else(|| format!("`{token}` is no legal move in {}", pos.to_fen()))
}

/// The movetext of a PGN game without comments (`{...}`, `;` to the end of the line),
/// variations (`(...)`, nested), numeric annotations (`$n`), move numbers and the result.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut clean = String::with_capacity(text.len());
    let (mut brace, mut paren, mut semicolon) = (false, 0usize, false);
    for c in text.chars() {
        match c {
            '\n' if semicolon => semicolon = false,
            _ if semicolon => {}
            '}' if brace => brace = false,
            _ if brace => {}
            '{' => brace = true,
            ';' => semicolon = true,
            '(' => paren += 1,
            ')' => paren = paren.saturating_sub(1),
            _ if paren > 0 => {}
            _ => clean.push(c),
        }
        if matches!(c, '}' | ')' | '\n') {
            clean.push(' ');
        }
    }
    clean
        .split_whitespace()
        .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && !t.starts_with('$'))
        .map(str::to_owned)
        .collect()
}

/// Reads the openings of a PGN file: each game's start (its `FEN` tag, else the start
/// position) and its first `plies` moves (all of them with `None`), in SAN or protocol form.
/// Games whose moves cannot be read are refused with the game's number.
pub fn load_pgn_openings<G: Records + Evaluation>(
    text: &str,
    plies: Option<usize>,
    config: &G::Config,
) -> Result<Vec<Opening>, String> {
    let mut games: Vec<(Option<String>, String)> = Vec::new();
    let mut in_tags = true;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') && line.ends_with(']') {
            if !in_tags || games.is_empty() {
                games.push((None, String::new()));
                in_tags = true;
            }
            let inner = &line[1..line.len() - 1];
            if let Some((name, value)) = inner.split_once(' ') {
                if name.eq_ignore_ascii_case("FEN") {
                    if let Some(last) = games.last_mut() {
                        last.0 = Some(value.trim().trim_matches('"').to_owned());
                    }
                }
            }
        } else if !line.is_empty() {
            if games.is_empty() {
                games.push((None, String::new()));
            }
            in_tags = false;
            if let Some(last) = games.last_mut() {
                last.1.push_str(line);
                last.1.push('\n');
            }
        }
    }
    let mut out = Vec::new();
    for (i, (fen, movetext)) in games.iter().enumerate() {
        let context = |e: String| format!("PGN game {}: {e}", i + 1);
        let mut pos = match fen {
            Some(f) => G::from_fen(f, config).map_err(|e| context(e.0))?,
            None => G::startpos(config),
        };
        let start = pos.to_fen();
        let mut moves = Vec::new();
        for token in movetext_tokens(movetext)
            .iter()
            .take(plies.unwrap_or(usize::MAX))
        {
            let m = parse_record_move(&pos, token, config).map_err(context)?;
            moves.push(pos.format_move(m, config));
            pos.make_move(m);
            if pos.outcome().is_some() {
                return Err(context("the opening ends the game".into()));
            }
        }
        out.push(Opening { fen: start, moves });
    }
    if out.is_empty() {
        return Err("no games in the PGN file".into());
    }
    Ok(out)
}

/// A line of an opening book from `start`: at most `plies` moves, each drawn by weight among the
/// book's legal moves (seeded by `rng`); it ends early where the book has no move or a move
/// would end the game.
pub fn book_opening<G: Records>(
    book: &crate::game::book::Book,
    start: &G,
    plies: usize,
    rng: &mut Rng,
    config: &G::Config,
) -> Opening {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let Some(m) = book.pick(&pos, rng.next_u64()) else {
            break;
        };
        let text = pos.format_move(m, config);
        pos.make_move(m);
        if pos.outcome().is_some() {
            break;
        }
        moves.push(text);
    }
    Opening {
        fen: start.to_fen(),
        moves,
    }
}
