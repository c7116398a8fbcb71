//! `genfens`: balanced openings for OpenBench's datagen workloads. Each opening starts from a
//! book line (picked by the seed) or the start position (a random Chess960 one in Chess960
//! mode), plays random legal moves, and is kept when a short search scores it within
//! [`MARGIN`] centipawns (or `margin=<cp>`); the same seed gives the same openings, another
//! seed others.

use super::selfplay::{analyse, SplitMix};
use crate::game::{Game, MoveBuffer};
use crate::search::{SearchLimits, Searcher};

/// Random plies from the start position (from a book line: [`BOOK_PLIES`]).
pub const START_PLIES: usize = 8;
/// Random plies after a book line.
pub const BOOK_PLIES: usize = 2;
/// Nodes of the search that judges an opening.
pub const NODES: u64 = 2000;
/// Largest score (centipawns, either side) of a kept opening, unless `margin=<cp>` says
/// otherwise (measured: docs/clients/genfens-margin.md).
pub const MARGIN: i32 = 25;
/// Tries per opening before the last candidate is taken anyway.
const TRIES: usize = 200;

/// `count` openings (position strings) of the game of `_game` under `seed`, from `book` lines
/// when given, each scored within `margin` centipawns (or the last of [`TRIES`] candidates).
pub fn openings<G: Game>(
    _game: &G,
    config: &G::Config,
    count: u32,
    seed: u64,
    book: Option<&[String]>,
    margin: i32,
    searcher: &mut Searcher,
) -> Vec<String> {
    let limits = SearchLimits {
        nodes: Some(NODES),
        ..SearchLimits::default()
    };
    let mut out = Vec::with_capacity(count as usize);
    let mut stream = 0u64;
    for _ in 0..count {
        let mut last = None;
        for _ in 0..TRIES {
            stream += 1;
            let mut rng = SplitMix::for_game(seed, stream);
            let Some(pos) = candidate::<G>(config, book, &mut rng) else {
                continue;
            };
            searcher.clear();
            let Some(a) = analyse(&pos, searcher, &limits) else {
                continue;
            };
            let fen = pos.to_fen();
            if a.first.abs() <= margin {
                last = Some(fen);
                break;
            }
            last = Some(fen);
        }
        if let Some(fen) = last {
            out.push(fen);
        }
    }
    out
}

/// One random opening: a start, then random legal moves; `None` when the game ended on the way
/// or the book line could not be read.
fn candidate<G: Game>(
    config: &G::Config,
    book: Option<&[String]>,
    rng: &mut SplitMix,
) -> Option<G> {
    let (mut pos, plies) = match book {
        Some(lines) if !lines.is_empty() => {
            let line = &lines[rng.below(lines.len())];
            (G::from_fen(&epd_to_fen(line), config).ok()?, BOOK_PLIES)
        }
        _ => {
            let starts = G::start_positions(config);
            let pos = if starts > 1 {
                G::numbered_startpos(rng.below(starts), config).ok()?
            } else {
                G::startpos(config)
            };
            (pos, START_PLIES)
        }
    };
    for _ in 0..plies {
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        let legal = list.moves();
        let m = *legal.get(rng.below(legal.len()))?;
        pos.make_move(m);
        if pos.outcome().is_some() {
            return None;
        }
    }
    Some(pos)
}

/// An EPD line (`<4 fields> [opcodes;]`) as a FEN; `hmvc`/`fmvn` opcodes give the counters.
/// A line that is already a FEN is returned as it is.
pub fn epd_to_fen(line: &str) -> String {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() <= 4 || !line.contains(';') {
        return line.to_string();
    }
    let opcode = |name: &str| -> Option<String> {
        line.split(';').find_map(|op| {
            let w = op.split_whitespace();
            if w.clone().any(|x| x == name) {
                w.skip_while(|x| *x != name).nth(1).map(str::to_string)
            } else {
                None
            }
        })
    };
    let hmvc = opcode("hmvc").unwrap_or_else(|| "0".into());
    let fmvn = opcode("fmvn").unwrap_or_else(|| "1".into());
    format!("{} {hmvc} {fmvn}", words[..4].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_become_fens() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/K1k5 w - - c0 \"x\"; hmvc 7; fmvn 40;"),
            "8/8/8/8/8/8/8/K1k5 w - - 7 40"
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/K1k5 w - - 3 9"),
            "8/8/8/8/8/8/8/K1k5 w - - 3 9"
        );
    }
}
