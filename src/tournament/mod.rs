//! `sanqi match`: a tournament manager for UCI, UCCI and Fairy-Stockfish engines that referees
//! chess, xiangqi and Chinese checkers with sanqi's own rules code.
//!
//! ```text
//! sanqi match --game chess|xiangqi|chinesecheckers [SETUP FLAGS: --chess960, --ranks 1-10,
//!     --players 2|3|4|6, --goal-lock, --no-foreign-stop...]
//!     --engine cmd=PROG [name=NAME] [arg=ARG]... [dir=DIR] [proto=uci|ucci|uci-fsf] [SETUPFLAG=VALUE]...
//!              [option.NAME=VALUE]... [tc=..|movetime=..|nodes=..|depth=..]
//!     --engine ... (two or more)
//!     [--each KEY=VALUE...]            applied to every engine (same keys as --engine)
//!     [--tc [MOVES/]BASE[+INC] | --movetime MS | --nodes N | --depth N]   (seconds for tc)
//!     [--rounds N] [--games-per-opening N] [--concurrency N]
//!     [--openings FILE [--order sequential|random]] [--random-plies N [--random-balance CP]]
//!     [--seed N]
//!     [--pgn FILE] [--movelist FILE] [--event TEXT]
//!     [--margin MS] [--hang-grace MS] [--unclocked-timeout MS] [--ready-timeout MS]
//!     [--max-plies N] [--stall-plies N]
//!     [--draw movenumber=N movecount=N score=CP] [--resign movecount=N score=CP]
//!     [--sprt elo0=E0 elo1=E1 alpha=A beta=B] [--quiet]
//! ```
//! See [`args`] for the details and [`referee`] for how games are judged.
//!
//! The parts: [`config`] (what a match is), [`schedule`] (who plays whom from which opening),
//! [`pool`] (engine processes and worker threads), [`engine`] (one engine process, commands as
//! typed `sanqi_protocol` values), [`referee`] (one game), [`record`] (a finished game),
//! [`report`] (totals, progress line, summary), [`pgn`] and [`openings`].

pub mod args;
pub mod children;
pub mod config;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod pool;
pub mod proto;
pub mod record;
pub mod referee;
pub mod report;
pub mod schedule;
pub mod spsa;
pub mod stats;
pub mod timecontrol;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use crate::game::{with_kind, Evaluation, Records};
pub use config::{MatchConfig, OpeningSource};
use pool::{GameResult, Worker};
use record::GameRecord;
use referee::Progress;
pub use report::{summary, EngineTally, MatchReport};
use schedule::ScheduledGame;

/// The `sanqi match` entry point: `args` are the arguments after `match`.
pub fn main(args: &[String]) -> ExitCode {
    let config = match args::parse(args) {
        Ok(args::Parsed::Run(c)) => c,
        Ok(args::Parsed::Help) => {
            println!("{}", args::usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("sanqi match: {e}\n\n{}", args::usage());
            return ExitCode::from(2);
        }
    };
    children::install_signal_handlers();
    let result = run(&config);
    children::wait_if_ending();
    match result {
        Ok(report) => {
            say(&summary(&config, &report));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sanqi match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes to stdout; a closed stdout (`sanqi match ... | head`) ends the runner with every
/// engine (exit status 141, as SIGPIPE would give).
fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        drop(out);
        children::end_runner("stdout closed", 141);
    }
}

/// Plays a match of the configured game in the configured setup.
///
/// # Errors
/// A configuration problem (too few engines, unreadable openings, PGN file not writable, an
/// engine setup the game does not have). Engine misbehaviour is never an error: it loses games.
pub fn run(config: &MatchConfig) -> Result<MatchReport, String> {
    if let Some(tb) = &config.referee.tablebase {
        let (summary, problems) = crate::game::chess::tables::set_path(&tb.path);
        for p in problems {
            eprintln!("sanqi match: {p}");
        }
        if !crate::game::chess::tables::loaded() {
            return Err(format!("--tb: {summary}"));
        }
        say(&format!("{summary}\n"));
    }
    with_kind!(config.game, G => run_game::<G>(config, config.setup.get::<G>()))
}

/// Plays a match of game `G` in setup `setup` (public so that tests can run a toy game through
/// the same code); stalls are measured with [`Records::progress`].
///
/// # Errors
/// See [`run`].
pub fn run_game<G: Records + Evaluation>(
    config: &MatchConfig,
    setup: &G::Config,
) -> Result<MatchReport, String> {
    run_game_with_progress::<G>(config, setup, G::progress)
}

fn open_append(path: Option<&Path>, what: &str) -> Result<Option<File>, String> {
    path.map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {what} {}: {e}", path.display()))
    })
    .transpose()
}

/// [`run_game`] with another progress measure for stall adjudication.
///
/// # Errors
/// See [`run`].
pub fn run_game_with_progress<G: Records + Evaluation>(
    config: &MatchConfig,
    setup: &G::Config,
    progress: Progress<G>,
) -> Result<MatchReport, String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    if config.rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    let engine_setups = Worker::<G>::engine_setups(config, setup)?;
    let games = schedule::schedule::<G>(config, setup)?;
    let total = games.len();
    let mut output = Output::<G>::open(config, setup)?;

    let (game_tx, game_rx) = crossbeam_channel::unbounded::<ScheduledGame>();
    for game in games {
        let _ = game_tx.send(game);
    }
    drop(game_tx);
    let (res_tx, res_rx) = crossbeam_channel::unbounded::<GameResult>();
    let stop = AtomicBool::new(false);
    let mut by_index: Vec<Option<GameRecord>> = vec![None; total];
    let mut report = MatchReport::new(config);
    let mut first_error = None;
    let worker = Worker::<G> {
        config,
        setup,
        engine_setups: &engine_setups,
        progress,
    };

    thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64).min(total.max(1)) {
            let (game_rx, res_tx, stop) = (game_rx.clone(), res_tx.clone(), &stop);
            scope.spawn(move || worker.run(&game_rx, &res_tx, stop));
        }
        drop(res_tx);
        let mut done = 0usize;
        while let Ok((index, result)) = res_rx.recv() {
            // Once the runner is being ended (a signal, a closed stdout), the games that end
            // now were cut short by its own kill of their engines: neither written nor counted.
            if children::ending() {
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            let rec = match result {
                Ok(r) => r,
                Err(e) => {
                    first_error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            output.game(index, &rec);
            done += 1;
            report.add(&rec);
            if let Some(slot) = by_index.get_mut(index) {
                *slot = Some(rec);
            }
            if let Some(sprt) = &config.sprt {
                if report.update_sprt(sprt, done, total) && !stop.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if !config.quiet {
                say(&format!(
                    "{}\n",
                    report::progress_line(config, &report, done, total)
                ));
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    report.records = by_index.into_iter().flatten().collect();
    // The head-to-head table in a fixed order.
    report.pairs.sort_by_key(|p| (p.0, p.1));
    Ok(report)
}

/// Where finished games go: the PGN file, the move-list file, the console.
struct Output<'a, G: Records> {
    config: &'a MatchConfig,
    setup: &'a G::Config,
    names: Vec<String>,
    date: String,
    tc_text: String,
    pgn: Option<File>,
    movelist: Option<File>,
}

impl<'a, G: Records> Output<'a, G> {
    fn open(config: &'a MatchConfig, setup: &'a G::Config) -> Result<Self, String> {
        Ok(Output {
            config,
            setup,
            names: config.engines.iter().map(|e| e.name.clone()).collect(),
            date: report::pgn_date(),
            tc_text: config.tc.record_text(),
            pgn: open_append(config.pgn.as_deref(), "PGN file")?,
            movelist: open_append(config.movelist.as_deref(), "move-list file")?,
        })
    }

    /// Writes game number `index` (0-based) everywhere it goes; nothing once the runner is
    /// being ended: the engines it killed end the games in progress, which did not finish.
    fn game(&mut self, index: usize, rec: &GameRecord) {
        if children::ending() {
            return;
        }
        if let Some(file) = self.pgn.as_mut() {
            let header = pgn::PgnHeader {
                event: &self.config.event,
                round: index + 1,
                names: &self.names,
                date: &self.date,
                time_control: &self.tc_text,
            };
            let _ = file.write_all(pgn::write_pgn::<G>(rec, &header, self.setup).as_bytes());
        }
        if let Some(file) = self.movelist.as_mut() {
            let line = report::movelist_line(index + 1, rec, &self.names);
            let _ = file.write_all(line.as_bytes());
        }
        if !self.config.quiet {
            let seat_names: Vec<&str> = rec
                .seats
                .iter()
                .map(|&e| self.names.get(e).map_or("?", String::as_str))
                .collect();
            say(&format!(
                "Finished game {} ({}): {} {{{}}}\n",
                index + 1,
                seat_names.join(" vs "),
                rec.result_text(),
                rec.reason
            ));
        }
    }
}
