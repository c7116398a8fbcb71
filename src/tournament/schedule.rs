//! The schedule of a match: which engines play which seats from which opening, game by game.

use super::config::{MatchConfig, OpeningSource};
use super::openings::{self, Opening, Rng};
use crate::game::book::Book;
use crate::game::{Evaluation, Records};

/// Largest opening file `sanqi match` reads (a regular file; a FIFO or a device is refused).
const MAX_OPENINGS_BYTES: u64 = 1 << 30;

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Its number in the schedule (0-based).
    pub index: usize,
    /// Where it starts.
    pub opening: Opening,
    /// The engine index of each seat (turn order).
    pub seats: Vec<usize>,
}

/// The tables of one opening: every pair of engines for two seats, or one table with all seats
/// filled cyclically from the engine list.
fn tables(engines: usize, seats: usize) -> Vec<Vec<usize>> {
    if seats == 2 {
        let mut t = Vec::new();
        for i in 0..engines {
            for j in i + 1..engines {
                t.push(vec![i, j]);
            }
        }
        t
    } else {
        vec![(0..seats).map(|s| s % engines.max(1)).collect()]
    }
}

/// Builds the schedule: for each round one opening; for each table the games of that opening
/// with colours swapped or seats rotated. With several numbered start positions in the setup
/// (Chess960), each round starts from one of them (drawn with the seed).
///
/// # Errors
/// An unreadable or empty opening file, or a start position the game refuses.
pub fn schedule<G: Records + Evaluation>(
    config: &MatchConfig,
    gc: &G::Config,
) -> Result<Vec<ScheduledGame>, String> {
    let start = G::startpos(gc);
    let seats_n = start.num_players();
    let mut rng = Rng::new(config.seed);
    let mut file_openings = match &config.openings {
        OpeningSource::File(path) => {
            let text = crate::files::read_bounded_text(path, MAX_OPENINGS_BYTES, "openings")?;
            openings::load_openings::<G>(&text, gc)?
        }
        OpeningSource::Pgn(path, plies) => {
            let text = crate::files::read_bounded_text(path, MAX_OPENINGS_BYTES, "openings")?;
            openings::load_pgn_openings::<G>(&text, *plies, gc)?
        }
        _ => Vec::new(),
    };
    let book = match &config.openings {
        OpeningSource::Book(path, _) => {
            let book = Book::open(path)?;
            if book.moves(&start).is_empty() {
                return Err(format!(
                    "book '{}' has no {} move for the start position",
                    path.display(),
                    G::NAME
                ));
            }
            book
        }
        _ => Book::default(),
    };
    if config.random_order {
        rng.shuffle(&mut file_openings);
    }
    let tables = tables(config.engines.len(), seats_n);
    let per_opening = config.games_per_opening.unwrap_or(seats_n as u32).max(1) as usize;
    let start_positions = G::start_positions(gc);
    let mut games = Vec::new();
    for round in 0..config.rounds as usize {
        let round_start = if start_positions > 1 {
            let n = rng.below(start_positions);
            G::numbered_startpos(n, gc).map_err(|e| format!("start position {n}: {e}"))?
        } else {
            start.clone()
        };
        let opening = match &config.openings {
            OpeningSource::StartPos => Opening {
                fen: round_start.to_fen(),
                moves: Vec::new(),
            },
            OpeningSource::Book(_, plies) => {
                openings::book_opening(&book, &round_start, *plies, &mut rng, gc)
            }
            OpeningSource::File(_) | OpeningSource::Pgn(..) => file_openings
                .get(round % file_openings.len().max(1))
                .cloned()
                .ok_or("no openings in the file")?,
            OpeningSource::Random(plies) => {
                openings::random_opening(&round_start, *plies, config.random_balance, &mut rng, gc)
            }
        };
        for table in &tables {
            for g in 0..per_opening {
                let seats: Vec<usize> = (0..seats_n)
                    .filter_map(|s| table.get((s + g) % seats_n).copied())
                    .collect();
                games.push(ScheduledGame {
                    index: games.len(),
                    opening: opening.clone(),
                    seats,
                });
            }
        }
    }
    Ok(games)
}
