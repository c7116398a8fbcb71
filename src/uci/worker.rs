//! The long-lived search thread: it owns the transposition table and the search state, and runs
//! the jobs the session sends, in order.

use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Instant;

use crossbeam_channel::Receiver;
use sanqi_protocol::{Dialect, Reply};

use super::io::Output;
use super::report;
use super::tickets::Tickets;
use crate::game::{with_game, AnyGame, Game, GameConfigs, MoveBuffer};
use crate::search::{self, SearchLimits, SearchOptions, Searcher};

/// One `go`.
pub(crate) struct SearchJob {
    pub ticket: u64,
    pub game: AnyGame,
    pub limits: SearchLimits,
    pub ponder: bool,
    pub draw_offered: bool,
    pub searchmoves: Option<Vec<String>>,
    pub banmoves: Vec<String>,
    pub threads: usize,
    pub multipv: usize,
    pub skill: Option<crate::search::skill::Skill>,
    /// The opponents seen playing their policy move ([`SearchOptions::policy_players`]).
    pub policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
    pub configs: GameConfigs,
    pub dialect: Dialect,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `OwnBook`: the book and `Book Depth`, for a `go` that may answer from it.
    pub book: Option<(Arc<crate::game::book::Book>, u32)>,
}

/// Work for the search thread.
pub(crate) enum Job {
    Search(Box<SearchJob>),
    Perft {
        game: Box<AnyGame>,
        depth: u32,
        configs: GameConfigs,
    },
    Bench {
        depth: Option<u32>,
        dialect: Dialect,
    },
    /// `genfens`: openings of `game`'s kind in its setup (`configs`), printed as
    /// `info string genfens <fen>` lines.
    Genfens {
        game: Box<AnyGame>,
        count: u32,
        seed: u64,
        book: Option<Vec<String>>,
        /// Largest score (centipawns, either side) of a kept opening.
        margin: i32,
        configs: GameConfigs,
        dialect: Dialect,
    },
    NewGame,
    ClearHash,
    ResizeHash(usize, Dialect),
    /// `Threads`: the search threads are started here, not in the next `go`.
    SetThreads(usize, Dialect),
    Quit,
}

/// The search thread's state.
pub(crate) struct SearchThread {
    out: Output,
    tickets: Arc<Tickets>,
    searcher: Searcher,
}

impl SearchThread {
    /// Starts the thread with a table of `hash_mb` MiB; it runs until [`Job::Quit`] or until the
    /// session drops its end of the channel.
    pub fn spawn(
        inbox: Receiver<Job>,
        out: Output,
        tickets: Arc<Tickets>,
        hash_mb: usize,
    ) -> JoinHandle<()> {
        // The table and the first search thread are made on the new thread; `isready` waits
        // for them as for any table job.
        tickets.table_job_sent();
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let searcher = Searcher::new(hash_mb);
                tickets.table_job_done();
                let mut w = SearchThread {
                    out,
                    tickets,
                    searcher,
                };
                while let Ok(job) = inbox.recv() {
                    if !w.run(job) {
                        break;
                    }
                }
            })
            .unwrap_or_else(|e| {
                // Without a search thread the engine cannot work at all.
                eprintln!("sanqi: cannot start the search thread: {e}");
                std::process::exit(1)
            })
    }

    /// Runs one job; false after [`Job::Quit`]. After `quit` or end of input the jobs still queued
    /// run in order, as Stockfish's loop would run them: a `go perft` or `bench` completes and
    /// prints, and each queued search starts already stopped and prints its `bestmove` at once.
    fn run(&mut self, job: Job) -> bool {
        match job {
            Job::Quit => return false,
            Job::NewGame => {
                self.searcher.clear();
                self.tickets.table_job_done();
            }
            Job::ClearHash => {
                self.searcher.clear_hash();
                self.tickets.table_job_done();
            }
            Job::ResizeHash(mb, dialect) => {
                if let Err(e) = self.searcher.resize_hash(mb) {
                    self.out.error(e, dialect);
                }
                self.tickets.table_job_done();
            }
            Job::SetThreads(n, dialect) => {
                let running = self.searcher.set_threads(n);
                if running < n {
                    self.out.error(
                        format!("only {running} of {n} search threads could be started"),
                        dialect,
                    );
                }
                self.tickets.table_job_done();
            }
            Job::Perft {
                mut game,
                depth,
                configs,
            } => {
                let (lines, total) = game.perft_divide(depth, &configs);
                let mut text: Vec<String> = lines
                    .into_iter()
                    .map(|(m, n)| format!("{m}: {n}"))
                    .collect();
                text.push(String::new());
                text.push(format!("Nodes searched: {total}"));
                self.out.lines(text);
            }
            Job::Bench { depth, dialect } => {
                let report = crate::bench::run(depth, &mut self.searcher);
                for l in report.lines() {
                    self.out.reply(&Reply::message(l), dialect);
                }
            }
            Job::Search(job) => self.search(*job),
            Job::Genfens {
                game,
                count,
                seed,
                book,
                margin,
                configs,
                dialect,
            } => {
                let fens = with_game!(&*game, configs, g, c => {
                    crate::datagen::genfens::openings(g, c, count, seed, book.as_deref(), margin, &mut self.searcher)
                });
                for fen in fens {
                    self.out
                        .reply(&Reply::message(format!("genfens {fen}")), dialect);
                }
            }
        }
        true
    }

    fn search(&mut self, job: SearchJob) {
        self.tickets.begin(job.ticket, job.ponder, job.draw_offered);
        let lines = with_game!(&job.game, job.configs, g, c => {
            think(g, c, &job, &mut self.searcher, &self.tickets, &self.out)
        });
        self.tickets.end(job.ticket, || self.out.lines(lines));
    }
}

/// Runs one search and returns the closing lines (`info string path`, `bestmove`).
fn think<G: Game>(
    game: &G,
    config: &G::Config,
    job: &SearchJob,
    searcher: &mut Searcher,
    tickets: &Tickets,
    out: &Output,
) -> Vec<String> {
    // Time since `go` was read (the clock counts from there too).
    let start = job.limits.received.unwrap_or_else(Instant::now);
    let dialect = job.dialect;
    let style = report::Style {
        dialect,
        multipv: job.multipv > 1,
        wdl: job.show_wdl,
    };
    if dialect == Dialect::Ucci && job.limits.depth == Some(0) {
        // UCCI 3.0: `go depth 0` asks for no move.
        return vec![Reply::NoBestMove.display(dialect).to_string()];
    }
    let mut legal = G::MoveList::default();
    game.generate_moves(&mut legal);
    let mut root: Vec<G::Move> = legal.moves().to_vec();
    if let Some(only) = &job.searchmoves {
        let chosen: Vec<G::Move> = only
            .iter()
            .filter_map(|t| game.parse_move(t, config).ok())
            .collect();
        root.retain(|m| chosen.contains(m));
    }
    let banned: Vec<G::Move> = job
        .banmoves
        .iter()
        .filter_map(|t| game.parse_move(t, config).ok())
        .collect();
    root.retain(|m| !banned.contains(m));
    let root_filter = if job.searchmoves.is_some() || !banned.is_empty() {
        Some(root)
    } else {
        None
    };

    // A rule-based player (a setup option of the game), or the book, answers without searching,
    // unless the GUI restricted the root moves to exclude its choice.
    let book_move = job.book.as_ref().and_then(|(book, depth)| {
        if game_ply(&game.to_fen()).is_some_and(|ply| ply < *depth) {
            book.pick(game, book_seed())
        } else {
            None
        }
    });
    if let Some(m) = book_move {
        out.reply(
            &Reply::message(format!("book move {}", game.format_move(m, config))),
            dialect,
        );
    }
    if let Some(m) = book_move.or_else(|| game.rule_move(config)) {
        if root_filter.as_ref().is_none_or(|r| r.contains(&m)) {
            let value = game.evaluate();
            let result = search::SearchResult {
                best: Some(m),
                ponder: None,
                score: search::SearchScore::Cp(value),
                value,
                depth: 0,
                seldepth: 0,
                nodes: 0,
                pv: vec![m],
                tbhits: None,
            };
            let totals = report::Totals {
                time_ms: start.elapsed().as_millis() as u64,
                hashfull: 0,
            };
            return report::closing_lines(
                game,
                config,
                &result,
                totals,
                style,
                tickets.draw_offered(),
            );
        }
    }

    if root_filter.as_ref().is_some_and(|r| r.is_empty()) && !legal.moves().is_empty() {
        // The search answers `nobestmove` / `bestmove (none)`; a banned move is never played.
        let why = if job.searchmoves.is_some() {
            "searchmoves and banmoves leave no legal move"
        } else {
            "banmoves excludes every legal move"
        };
        out.reply(&Reply::message(format!("no move to play: {why}")), dialect);
    }
    if game.num_players() > 2 {
        let text = format!(
            "multi-player search: {} ({} players), scores from the side to move",
            search::multiplayer::multiplayer_algorithm(),
            game.num_players()
        );
        out.reply(&Reply::message(text), dialect);
    }
    let options = SearchOptions {
        threads: job.threads.max(1),
        multipv: job.multipv.max(1),
        skill: job.skill,
        policy_players: job.policy_players,
    };
    let mut on_event = |event| {
        let info = report::info(game, config, &event, style);
        out.reply(&Reply::Info(info), dialect);
    };
    let result = searcher.search(
        game,
        &job.limits,
        &options,
        root_filter.as_deref(),
        tickets.control(),
        &mut on_event,
    );
    let totals = report::Totals {
        time_ms: start.elapsed().as_millis() as u64,
        hashfull: searcher.tt().hashfull(),
    };
    report::closing_lines(game, config, &result, totals, style, tickets.draw_offered())
}

/// The plies played since the first move of the game, from a two-player FEN's side to move and
/// full-move number (its second and last fields).
fn game_ply(fen: &str) -> Option<u32> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let fullmove: u32 = fields.last()?.parse().ok()?;
    let black = matches!(fields.get(1), Some(&"b"));
    Some(2 * fullmove.saturating_sub(1) + u32::from(black))
}

/// A random number for drawing a book move: the clock's nanoseconds mixed with a counter.
fn book_seed() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 40;
    crate::splitmix::next(&mut state)
}
