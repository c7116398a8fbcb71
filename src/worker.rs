//! The long-lived search thread: it owns the transposition table and the search state, and runs
//! the jobs the reader sends, in order.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use crossbeam_channel::Receiver;
use sanqi_protocol::{Bound, Dialect, Info, Reply, Score};

use crate::engine::Shared;
use crate::game::chinese_checkers::paths::path_to_string;
use crate::game::{AnyGame, Game, GameConfig, GameMove, MoveBuffer};
use crate::io::Output;
use crate::search::{self, SearchEvent, SearchLimits, SearchOptions, SearchScore, Searcher};
use crate::with_game;

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
    pub config: GameConfig,
    pub dialect: Dialect,
}

/// Work for the search thread.
pub(crate) enum Job {
    Search(Box<SearchJob>),
    Perft {
        game: Box<AnyGame>,
        depth: u32,
        config: GameConfig,
    },
    Bench {
        depth: Option<u32>,
        dialect: Dialect,
    },
    NewGame,
    ClearHash,
    ResizeHash(usize, Dialect),
    Quit,
}

pub(crate) struct Worker {
    out: Output,
    shared: Arc<Shared>,
    searcher: Searcher,
}

impl Worker {
    pub fn spawn(
        inbox: Receiver<Job>,
        out: Output,
        shared: Arc<Shared>,
        hash_mb: usize,
    ) -> JoinHandle<()> {
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut w = Worker {
                    out,
                    shared,
                    searcher: Searcher::new(hash_mb),
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

    fn run(&mut self, job: Job) -> bool {
        if self.shared.quitting.load(Ordering::SeqCst) && !matches!(job, Job::Quit) {
            // Jobs queued behind `quit` are dropped.
            return true;
        }
        match job {
            Job::Quit => return false,
            Job::NewGame => self.searcher.clear(),
            Job::ClearHash => self.searcher.clear_hash(),
            Job::ResizeHash(mb, dialect) => {
                if let Err(e) = self.searcher.resize_hash(mb) {
                    self.out.error(e, dialect);
                }
            }
            Job::Perft {
                mut game,
                depth,
                config,
            } => {
                let (lines, total) = game.perft_divide(depth, &config);
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
        }
        true
    }

    fn search(&mut self, job: SearchJob) {
        {
            let t = &mut *self.shared.tickets.lock();
            t.running = job.ticket;
            let c = &self.shared.control;
            c.stop.store(t.stop_upto >= job.ticket, Ordering::SeqCst);
            c.ponder.store(
                job.ponder && t.ponderhit_upto < job.ticket,
                Ordering::SeqCst,
            );
            self.shared
                .draw_offered
                .store(job.draw_offered, Ordering::SeqCst);
        }
        let lines =
            with_game!(&job.game, g => think(g, &job, &mut self.searcher, &self.shared, &self.out));
        let t = &mut *self.shared.tickets.lock();
        self.out.lines(lines);
        t.running = 0;
        t.finished = job.ticket;
    }
}

/// Largest score (from our side) at which a UCCI draw offer is accepted.
const DRAW_ACCEPT_CP: i32 = 0;

/// Writes a move sequence from `game`, playing it on a copy (formats may depend on the position).
fn format_line<G: Game>(game: &G, moves: &[G::Move], config: &GameConfig) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let mut legal = G::MoveList::default();
        g.generate_moves(&mut legal);
        if !legal.moves().contains(&m) {
            break;
        }
        out.push(g.format_move(m, config));
        g.make_move(m);
    }
    out
}

fn protocol_score(s: SearchScore) -> Score {
    match s {
        SearchScore::Cp(cp) => Score::Cp(cp),
        SearchScore::Mate(n) => Score::Mate(n),
    }
}

/// Runs one search and returns the closing lines (`info string path`, `bestmove`).
fn think<G: Game>(
    game: &G,
    job: &SearchJob,
    searcher: &mut Searcher,
    shared: &Shared,
    out: &Output,
) -> Vec<String> {
    let dialect = job.dialect;
    let config = &job.config;
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
    };
    let mut report = |event: SearchEvent<G::Move>| {
        let info = match event {
            SearchEvent::Iteration(it) => Info {
                depth: Some(it.depth),
                seldepth: Some(it.seldepth),
                multipv: (options.multipv > 1).then_some(it.multipv as u32),
                score: Some(protocol_score(it.score)),
                bound: match it.bound {
                    search::Bound::Lower => Some(Bound::Lower),
                    search::Bound::Upper => Some(Bound::Upper),
                    _ => None,
                },
                nodes: Some(it.nodes),
                nps: Some(it.nps),
                hashfull: Some(it.hashfull),
                time: Some(it.time_ms),
                pv: format_line(game, &it.pv, config),
                ..Info::default()
            },
            SearchEvent::CurrMove { depth, mv, number } => Info {
                depth: Some(depth),
                currmove: Some(game.format_move(mv, config)),
                currmovenumber: Some(number as u32),
                ..Info::default()
            },
        };
        out.reply(&Reply::Info(info), dialect);
    };
    let result = searcher.search(
        game,
        &job.limits,
        &options,
        root_filter.as_deref(),
        &shared.control,
        &mut report,
    );
    let mut lines = Vec::new();
    match result.best {
        Some(best) => {
            let mv = game.format_move(best, config);
            let ponder = result.ponder.and_then(|p| {
                let mut g = game.clone();
                g.make_move(best);
                format_line(&g, &[p], config).pop()
            });
            if let AnyGameExtras::Paths(path) = extras(game, best) {
                lines.push(
                    Reply::message(format!("path {path}"))
                        .display(dialect)
                        .to_string(),
                );
            }
            // UCCI draw offers are accepted when the search sees no advantage for us.
            let draw = dialect == Dialect::Ucci
                && shared.draw_offered.load(Ordering::SeqCst)
                && match result.score {
                    SearchScore::Cp(cp) => cp <= DRAW_ACCEPT_CP,
                    SearchScore::Mate(n) => n < 0,
                };
            let reply = Reply::BestMove {
                mv,
                ponder,
                draw,
                resign: false,
            };
            lines.push(reply.display(dialect).to_string());
        }
        None => {
            if dialect == Dialect::Uci {
                let score = if game.in_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                };
                let info = Info {
                    depth: Some(0),
                    score: Some(score),
                    ..Info::default()
                };
                lines.push(Reply::Info(info).display(dialect).to_string());
            }
            lines.push(Reply::NoBestMove.display(dialect).to_string());
        }
    }
    lines
}

enum AnyGameExtras {
    None,
    Paths(String),
}

/// Game-specific text printed before `bestmove` (the Chinese-checkers witness path).
fn extras<G: Game>(game: &G, best: G::Move) -> AnyGameExtras {
    let any: &dyn std::any::Any = game;
    match any.downcast_ref::<crate::game::chinese_checkers::ChineseCheckers>() {
        Some(cc) => match cc.move_path(cc_move(best)) {
            Some(path) if !path.is_empty() => AnyGameExtras::Paths(path_to_string(&path)),
            _ => AnyGameExtras::None,
        },
        None => AnyGameExtras::None,
    }
}

/// The same move as a Chinese-checkers move (only called when `G` is Chinese checkers).
fn cc_move<M: GameMove>(m: M) -> crate::game::chinese_checkers::Move {
    crate::game::chinese_checkers::Move::from_bits(m.to_bits())
}
