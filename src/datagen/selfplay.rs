//! One self-play game of any two-player [`Game`]: a random opening, then a fixed-nodes (or
//! fixed-depth) search per move, adjudicated by the game's rules and by the score; the quiet
//! positions with their scores are kept for the output.

use crate::game::{Game, Outcome};
use crate::search::{SearchControl, SearchLimits, SearchOptions, SearchScore, Searcher};
use crate::tournament::openings::random_moves;

/// How games are played and adjudicated (every field has a command-line flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaySettings {
    /// Nodes per move (`--nodes`).
    pub nodes: Option<u64>,
    /// Depth per move (`--depth`).
    pub depth: Option<u32>,
    /// Random legal moves played before the search takes over (`--random-plies`).
    pub random_plies: usize,
    /// An opening whose first search scores more than this (either way) is already decided and
    /// is thrown away (`--opening-limit`).
    pub opening_limit: i32,
    /// Win adjudication: |score| at least this ... (`--win-score`)
    pub win_score: i32,
    /// ... for this many plies in a row, all in favour of the same side (`--win-plies`).
    pub win_plies: usize,
    /// Draw adjudication: |score| at most this ... (`--draw-score`)
    pub draw_score: i32,
    /// ... for this many plies in a row (`--draw-plies`) ...
    pub draw_plies: usize,
    /// ... once the game is this many plies long (`--draw-after`).
    pub draw_after: usize,
    /// A game still going after this many plies is a draw (`--max-plies`).
    pub max_plies: usize,
}

impl Default for PlaySettings {
    fn default() -> Self {
        PlaySettings {
            nodes: None,
            depth: None,
            random_plies: 8,
            opening_limit: 400,
            win_score: 1500,
            win_plies: 6,
            draw_score: 0,
            draw_plies: 20,
            draw_after: 80,
            max_plies: 400,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// By the game's rules (mate, stalemate, repetition, move limit, target filled...).
    Rules,
    /// By a huge score for several plies.
    WinAdjudication,
    /// By a long stretch of (near) zero scores.
    DrawAdjudication,
    /// By the ply cap.
    PlyCap,
}

/// One finished game: the kept positions as (position string, score from the first player's
/// point of view), the result from the first player's point of view (1, 0.5 or 0), and why it
/// ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Kept positions and their search scores (first player's view, centipawn-like units).
    pub positions: Vec<(String, i32)>,
    /// 1.0, 0.5 or 0.0 for the first player in turn order.
    pub result: f32,
    /// Why the game ended.
    pub ending: Ending,
    /// Openings thrown away before this game's (already decided by their first search).
    pub discarded_openings: u32,
    /// The start position of the game (before the random opening).
    pub start: String,
    /// Every move of the game from `start` (the random opening's first), in protocol form.
    pub moves: Vec<String>,
}

impl GameRecord {
    /// The output lines `<fen> | <score> | <result>`, each ending in `\n`.
    pub fn lines(&self) -> String {
        let result = result_text(self.result);
        let mut out = String::new();
        for (fen, score) in &self.positions {
            out.push_str(&format!("{fen} | {score} | {result}\n"));
        }
        out
    }
}

/// `1.0`, `0.5` or `0.0`.
pub fn result_text(result: f32) -> &'static str {
    if result > 0.75 {
        "1.0"
    } else if result < 0.25 {
        "0.0"
    } else {
        "0.5"
    }
}

/// A splitmix64 generator: every game gets its own stream from (seed, game number), so a game
/// is the same whichever thread plays it.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The stream of game `game` under `seed`.
    pub fn for_game(seed: u64, game: u64) -> SplitMix {
        let mut s = SplitMix(seed ^ 0x5851_F42D_4C95_7F2D);
        s.0 ^= game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        s.next_u64();
        s
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        crate::splitmix::next(&mut self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// The start of a game: a numbered start position when the setup has several (Chess960),
/// then `plies` random legal moves, none of which may end the game. Gives up after 1000 tries.
/// Returns the start position, the moves (protocol text) and the position after them.
fn random_opening<G: Game>(
    config: &G::Config,
    plies: usize,
    rng: &mut SplitMix,
) -> Option<(String, Vec<String>, G)> {
    let starts = G::start_positions(config);
    'tries: for _ in 0..1000 {
        let mut pos = if starts > 1 {
            G::numbered_startpos(rng.below(starts), config).ok()?
        } else {
            G::startpos(config)
        };
        let start = pos.to_fen();
        let Some(moves) = random_moves(&mut pos, plies, config, |n| rng.below(n)) else {
            continue 'tries;
        };
        return Some((start, moves, pos));
    }
    None
}

/// What one search of a position gives datagen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// The move to play.
    pub best: M,
    /// The score from the first player's point of view (internal units: mates are near
    /// [`crate::search::MATE`]).
    pub first: i32,
    /// Whether the position is kept: not in check, best move not noisy, no mate score.
    pub keep: bool,
}

/// Searches `pos` within `limits` (one thread) and says what datagen makes of it; `None` when
/// the side to move has no legal move.
pub fn analyse<G: Game>(
    pos: &G,
    searcher: &mut Searcher,
    limits: &SearchLimits,
) -> Option<Analysis<G::Move>> {
    let control = SearchControl::new();
    let r = searcher.search(
        pos,
        limits,
        &SearchOptions::default(),
        None,
        &control,
        &mut |_| {},
    );
    let best = r.best?;
    let first = if pos.side_to_move() == 0 {
        r.value
    } else {
        -r.value
    };
    let keep = matches!(r.score, SearchScore::Cp(_)) && !pos.in_check() && !pos.is_noisy(best);
    Some(Analysis { best, first, keep })
}

/// The result for the first player of an outcome.
fn result_of(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win(0) => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Plays one game (number `game` under `seed`) with `searcher` (cleared first). `stop` is
/// looked at before every move: when it returns true the game is abandoned (`None`).
pub fn play_game<G: Game>(
    config: &G::Config,
    settings: &PlaySettings,
    searcher: &mut Searcher,
    seed: u64,
    game: u64,
    stop: &dyn Fn() -> bool,
) -> Option<GameRecord> {
    let mut rng = SplitMix::for_game(seed, game);
    let limits = SearchLimits {
        nodes: settings.nodes,
        depth: settings.depth,
        ..SearchLimits::default()
    };
    let mut discarded = 0u32;
    'game: loop {
        let (start, mut moves, mut pos) =
            random_opening::<G>(config, settings.random_plies, &mut rng)?;
        searcher.clear();
        let mut positions = Vec::new();
        let mut win_run = 0usize;
        let mut win_sign = 0i32;
        let mut draw_run = 0usize;
        let mut ply = settings.random_plies;
        let mut first = true;
        let (result, ending) = loop {
            if stop() {
                return None;
            }
            if let Some(outcome) = pos.outcome() {
                break (result_of(outcome), Ending::Rules);
            }
            if ply >= settings.max_plies {
                break (0.5, Ending::PlyCap);
            }
            let Some(a) = analyse(&pos, searcher, &limits) else {
                // Not reached: `outcome` above found a legal move.
                break (result_of(pos.no_moves_outcome()), Ending::Rules);
            };
            let white = a.first;
            if first {
                first = false;
                if white.abs() > settings.opening_limit {
                    discarded += 1;
                    if discarded > 1000 {
                        return None;
                    }
                    continue 'game;
                }
            }
            if a.keep {
                positions.push((pos.to_fen(), white));
            }
            // Adjudication by the score (mate scores count as huge).
            let sign = white.signum();
            if white.abs() >= settings.win_score && sign == win_sign {
                win_run += 1;
            } else if white.abs() >= settings.win_score {
                win_sign = sign;
                win_run = 1;
            } else {
                win_run = 0;
                win_sign = 0;
            }
            if white.abs() <= settings.draw_score {
                draw_run += 1;
            } else {
                draw_run = 0;
            }
            moves.push(pos.format_move(a.best, config));
            pos.make_move(a.best);
            ply += 1;
            if settings.win_plies > 0 && win_run >= settings.win_plies {
                break (
                    if win_sign > 0 { 1.0 } else { 0.0 },
                    Ending::WinAdjudication,
                );
            }
            if settings.draw_plies > 0
                && draw_run >= settings.draw_plies
                && ply >= settings.draw_after
            {
                break (0.5, Ending::DrawAdjudication);
            }
        };
        return Some(GameRecord {
            positions,
            result,
            ending,
            discarded_openings: discarded,
            start,
            moves,
        });
    }
}
