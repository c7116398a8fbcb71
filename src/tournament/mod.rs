//! `sanqi match`: a tournament manager for UCI, UCCI and Fairy-Stockfish engines that referees
//! chess, xiangqi and Chinese checkers with sanqi's own rules code.
//!
//! ```text
//! sanqi match --game chess|xiangqi|chinesecheckers [--players 2|3|4|6] [--chess960]
//!     --engine cmd=PROG [name=NAME] [arg=ARG]... [dir=DIR] [proto=uci|ucci|uci-fsf] [ranks=1-10]
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

pub mod args;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod stats;
pub mod timecontrol;

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use crate::game::{with_kind, Game, GameConfigs, GameKind};
use engine::{Engine, EngineSpec};
use openings::{Opening, Rng};
use referee::{GameRecord, RefereeSettings, Termination};
use stats::{Sprt, SprtDecision, Wdl};
use timecontrol::TimeControl;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The start position of the game.
    StartPos,
    /// An EPD or FEN file.
    File(PathBuf),
    /// Random openings of this many plies from the start position.
    Random(usize),
}

/// A whole match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// Chinese checkers: number of players (2, 3, 4 or 6).
    pub players: u8,
    /// Chess960: start positions drawn from the 960 (unless an opening file is given), castling
    /// written king-takes-rook, `UCI_Chess960` sent to the engines.
    pub chess960: bool,
    /// The engines (two or more).
    pub engines: Vec<EngineSpec>,
    /// Time control of engines without their own.
    pub tc: TimeControl,
    /// Rounds: each round plays every pairing from one opening.
    pub rounds: u32,
    /// Games per opening and pairing (colours or seats rotate); default: the number of seats.
    pub games_per_opening: Option<u32>,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningSource,
    /// Random openings: largest static evaluation (centipawns) accepted; `None`: any.
    pub random_balance: Option<i32>,
    /// Shuffle the openings of a file.
    pub random_order: bool,
    /// Seed of random openings and shuffles.
    pub seed: u64,
    /// PGN output file (appended).
    pub pgn: Option<PathBuf>,
    /// Move-list output file (appended): one game a line, tab-separated: game number, seat
    /// names (comma-separated, turn order), result, points per seat, start position, moves
    /// (opening moves first), reason.
    pub movelist: Option<PathBuf>,
    /// PGN `Event` tag.
    pub event: String,
    /// The referee's settings.
    pub referee: RefereeSettings,
    /// Stop when this SPRT (first engine against the second) is decided.
    pub sprt: Option<Sprt>,
    /// Print nothing while playing.
    pub quiet: bool,
}

impl MatchConfig {
    /// A match of `engines` at `tc` with defaults for everything else.
    pub fn new(game: GameKind, engines: Vec<EngineSpec>, tc: TimeControl) -> Self {
        MatchConfig {
            game,
            players: 2,
            chess960: false,
            engines,
            tc,
            rounds: 1,
            games_per_opening: None,
            concurrency: 1,
            openings: OpeningSource::StartPos,
            random_balance: Some(100),
            random_order: false,
            seed: 1,
            pgn: None,
            movelist: None,
            event: "sanqi match".into(),
            referee: RefereeSettings::default(),
            sprt: None,
            quiet: true,
        }
    }

    /// The per-game settings handed to the rules code.
    pub fn game_configs(&self) -> GameConfigs {
        let mut configs = GameConfigs::default();
        configs.chinese_checkers.players = self.players;
        configs.chess.chess960 = self.chess960 && self.game == GameKind::Chess;
        configs
    }
}

/// Totals of one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTally {
    /// Engine name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Points (a game hands out one point, see [`referee`]).
    pub points: f64,
    /// Wins, draws (and stalls), losses.
    pub wdl: Wdl,
    /// Games lost by an illegal or missing move.
    pub illegal: u64,
    /// Games lost on time.
    pub time_losses: u64,
    /// Games lost by a crash (or a failed start).
    pub crashes: u64,
    /// Games lost by a hang.
    pub hangs: u64,
}

/// The outcome of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// Every finished game, in the order of the schedule.
    pub records: Vec<GameRecord>,
    /// Totals per engine (index as in the configuration).
    pub engines: Vec<EngineTally>,
    /// Two-player games: results of engine `i` against engine `j` (`i < j`), from `i`'s view.
    pub pairs: Vec<(usize, usize, Wdl)>,
    /// The SPRT's log-likelihood ratio and decision, if one was asked for.
    pub sprt: Option<(f64, SprtDecision)>,
    /// Whether the match stopped before the schedule ended (SPRT decided).
    pub stopped_early: bool,
}

impl MatchReport {
    /// The head-to-head counts of engines `a` and `b` from `a`'s view.
    pub fn pair(&self, a: usize, b: usize) -> Wdl {
        self.pairs
            .iter()
            .find_map(|&(i, j, w)| {
                if (i, j) == (a, b) {
                    Some(w)
                } else if (i, j) == (b, a) {
                    Some(w.flipped())
                } else {
                    None
                }
            })
            .unwrap_or_default()
    }
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    index: usize,
    opening: Opening,
    seats: Vec<usize>,
}

/// The `sanqi match` entry point: `args` are the arguments after `match`.
pub fn main(args: &[String]) -> ExitCode {
    let config = match args::parse(args) {
        Ok(args::Parsed::Run(c)) => c,
        Ok(args::Parsed::Help) => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("sanqi match: {e}\n\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    match run(&config) {
        Ok(report) => {
            print!("{}", summary(&config, &report));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sanqi match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays a match of the configured game.
///
/// # Errors
/// A configuration problem (too few engines, unreadable openings, PGN file not writable). Engine
/// misbehaviour is never an error: it loses games.
pub fn run(config: &MatchConfig) -> Result<MatchReport, String> {
    let configs = config.game_configs();
    with_kind!(config.game, G => run_game::<G>(config, configs.get::<G>()))
}

fn time_control_text(tc: &TimeControl) -> String {
    match *tc {
        TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        } => {
            let secs = |ms: u64| {
                if ms % 1000 == 0 {
                    format!("{}", ms / 1000)
                } else {
                    format!("{}", ms as f64 / 1000.0)
                }
            };
            let mut s = String::new();
            if let Some(m) = moves {
                s.push_str(&format!("{m}/"));
            }
            s.push_str(&secs(base_ms));
            if inc_ms > 0 {
                s.push('+');
                s.push_str(&secs(inc_ms));
            }
            s
        }
        TimeControl::MoveTime(ms) => format!("movetime {ms} ms"),
        TimeControl::Nodes(n) => format!("nodes {n}"),
        TimeControl::Depth(d) => format!("depth {d}"),
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Builds the schedule: for each round one opening; for each pairing (every pair of engines in
/// two-player games, or one table with all seats filled cyclically from the engine list) the
/// games of that opening with colours swapped or seats rotated.
fn schedule<G: Game>(config: &MatchConfig, gc: &G::Config) -> Result<Vec<Job>, String> {
    let start = G::startpos(gc);
    let seats_n = start.num_players();
    let mut rng = Rng::new(config.seed);
    let mut file_openings = match &config.openings {
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
            openings::load_openings::<G>(&text, gc)?
        }
        _ => Vec::new(),
    };
    if config.random_order {
        rng.shuffle(&mut file_openings);
    }
    let n = config.engines.len();
    let tables: Vec<Vec<usize>> = if seats_n == 2 {
        let mut t = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                t.push(vec![i, j]);
            }
        }
        t
    } else {
        vec![(0..seats_n).map(|s| s % n).collect()]
    };
    let per_opening = config.games_per_opening.unwrap_or(seats_n as u32).max(1) as usize;
    let mut jobs = Vec::new();
    for round in 0..config.rounds as usize {
        // Chess960: each round starts from one of the 960 positions (seeded).
        let round_start = if config.chess960 {
            let n = rng.below(960) as u32;
            G::from_fen(&openings::chess960_fen(n), gc).map_err(|e| format!("chess960 {n}: {e}"))?
        } else {
            start.clone()
        };
        let opening = match &config.openings {
            OpeningSource::StartPos => Opening {
                fen: round_start.to_fen(),
                moves: Vec::new(),
            },
            OpeningSource::File(_) => file_openings[round % file_openings.len()].clone(),
            OpeningSource::Random(plies) => {
                openings::random_opening(&round_start, *plies, config.random_balance, &mut rng, gc)
            }
        };
        for table in &tables {
            for g in 0..per_opening {
                let seats: Vec<usize> = (0..seats_n).map(|s| table[(s + g) % seats_n]).collect();
                jobs.push(Job {
                    index: jobs.len(),
                    opening: opening.clone(),
                    seats,
                });
            }
        }
    }
    Ok(jobs)
}

/// A record for a game that could not start because an engine failed to start.
fn forfeit_record<G: Game>(
    job: &Job,
    seat: usize,
    termination: Termination,
    why: String,
    gc: &G::Config,
) -> GameRecord {
    let n = job.seats.len();
    let fen =
        G::from_fen(&job.opening.fen, gc).map_or_else(|_| job.opening.fen.clone(), |p| p.to_fen());
    GameRecord {
        opening: job.opening.clone(),
        seats: job.seats.clone(),
        moves: Vec::new(),
        winner: (n == 2).then(|| 1 - seat.min(1)),
        points: (0..n)
            .map(|s| {
                if s == seat {
                    0.0
                } else {
                    1.0 / (n.max(2) - 1) as f64
                }
            })
            .collect(),
        termination,
        offender: Some(seat),
        reason: why,
        final_fen: fen,
    }
}

/// One worker: plays jobs with its own engine processes until the queue is empty or `stop` is set.
fn worker<G: Game>(
    config: &MatchConfig,
    gc: &G::Config,
    progress: referee::Progress<G>,
    jobs: &crossbeam_channel::Receiver<Job>,
    results: &crossbeam_channel::Sender<(usize, Result<GameRecord, String>)>,
    stop: &AtomicBool,
) {
    // Engine processes kept between games, by (engine index, occurrence within a game).
    let mut pool: HashMap<(usize, usize), Engine> = HashMap::new();
    while let Ok(job) = jobs.recv() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut keys = Vec::with_capacity(job.seats.len());
        for (s, &e) in job.seats.iter().enumerate() {
            let occurrence = job.seats[..s].iter().filter(|&&x| x == e).count();
            keys.push((e, occurrence));
        }
        let mut failed = None;
        for (s, key) in keys.iter().enumerate() {
            if pool.get(key).is_some_and(Engine::is_dead) {
                pool.remove(key);
            }
            if pool.contains_key(key) {
                continue;
            }
            let spec = &config.engines[key.0];
            match Engine::start(spec, G::NAME, config.chess960, config.referee.ready_timeout) {
                Ok(e) => {
                    pool.insert(*key, e);
                }
                Err(f) => {
                    let term = match f {
                        engine::EngineFailure::Timeout(_) => Termination::Hang,
                        _ => Termination::Crash,
                    };
                    failed = Some((s, term, format!("{} failed to start: {f}", spec.name)));
                    break;
                }
            }
        }
        let result = if let Some((seat, term, why)) = failed {
            Ok(forfeit_record::<G>(&job, seat, term, why, gc))
        } else {
            let mut taken: Vec<Engine> = Vec::with_capacity(keys.len());
            for key in &keys {
                if let Some(e) = pool.remove(key) {
                    taken.push(e);
                }
            }
            let tcs: Vec<TimeControl> = job
                .seats
                .iter()
                .map(|&e| config.engines[e].tc.unwrap_or(config.tc))
                .collect();
            let mut refs: Vec<&mut Engine> = taken.iter_mut().collect();
            let r = referee::play_game_with_progress::<G>(
                &mut refs,
                &job.seats,
                &tcs,
                &job.opening,
                gc,
                &config.referee,
                progress,
            );
            for (key, e) in keys.iter().zip(taken) {
                if !e.is_dead() {
                    pool.insert(*key, e);
                }
            }
            r
        };
        if results.send((job.index, result)).is_err() {
            break;
        }
    }
}

/// Empty totals for the engines of `config`.
fn empty_tally(config: &MatchConfig) -> Vec<EngineTally> {
    config
        .engines
        .iter()
        .map(|e| EngineTally {
            name: e.name.clone(),
            ..EngineTally::default()
        })
        .collect()
}

/// Adds one finished game to the per-engine totals and the head-to-head table.
fn add_to_tally(
    engines: &mut [EngineTally],
    pairs: &mut Vec<(usize, usize, Wdl)>,
    rec: &GameRecord,
) {
    for (seat, &e) in rec.seats.iter().enumerate() {
        let Some(t) = engines.get_mut(e) else {
            continue;
        };
        t.games += 1;
        t.points += rec.points.get(seat).copied().unwrap_or(0.0);
        match rec.winner {
            Some(w) if w == seat => t.wdl.wins += 1,
            Some(_) => t.wdl.losses += 1,
            None if rec.offender == Some(seat) => t.wdl.losses += 1,
            None => t.wdl.draws += 1,
        }
        if rec.offender == Some(seat) {
            match rec.termination {
                Termination::IllegalMove => t.illegal += 1,
                Termination::TimeForfeit => t.time_losses += 1,
                Termination::Crash => t.crashes += 1,
                Termination::Hang => t.hangs += 1,
                _ => {}
            }
        }
    }
    let [a, b] = rec.seats[..] else {
        return;
    };
    if a == b {
        return;
    }
    let first_score = rec.points.first().copied().unwrap_or(0.5);
    let (i, j, score_i) = if a < b {
        (a, b, first_score)
    } else {
        (b, a, 1.0 - first_score)
    };
    let index = match pairs.iter().position(|p| (p.0, p.1) == (i, j)) {
        Some(k) => k,
        None => {
            pairs.push((i, j, Wdl::default()));
            pairs.len() - 1
        }
    };
    let wdl = &mut pairs[index].2;
    if score_i > 0.75 {
        wdl.wins += 1;
    } else if score_i < 0.25 {
        wdl.losses += 1;
    } else {
        wdl.draws += 1;
    }
}

fn progress_line(config: &MatchConfig, report: &MatchReport, done: usize, total: usize) -> String {
    if config.engines.len() == 2 && !report.pairs.is_empty() {
        let w = report.pair(0, 1);
        let mut s = format!(
            "Score of {} vs {}: {} - {} - {} [{:.3}] {done}/{total}",
            config.engines[0].name,
            config.engines[1].name,
            w.wins,
            w.losses,
            w.draws,
            w.score().unwrap_or(0.5),
        );
        if let Some(e) = stats::elo_estimate(&w) {
            s.push_str(&format!("  Elo {:+.1} +/- {:.1}", e.elo, e.error));
        }
        if let (Some(sprt), Some((llr, _))) = (config.sprt, report.sprt) {
            s.push_str(&format!(
                "  LLR {llr:.2} ({:.2}, {:.2})",
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
        }
        s
    } else {
        let parts: Vec<String> = report
            .engines
            .iter()
            .map(|t| format!("{} {:.2}/{}", t.name, t.points, t.games))
            .collect();
        format!("Points: {}  {done}/{total}", parts.join(", "))
    }
}

/// Plays a match of game `G` (public so that tests can run a toy game through the same code).
///
/// # Errors
/// See [`run`].
pub fn run_game<G: Game>(config: &MatchConfig, gc: &G::Config) -> Result<MatchReport, String> {
    run_game_with_progress::<G>(config, gc, G::progress)
}

/// [`run_game`] with a progress measure for stall adjudication (see
/// [`referee::play_game_with_progress`]).
///
/// # Errors
/// See [`run`].
pub fn run_game_with_progress<G: Game>(
    config: &MatchConfig,
    gc: &G::Config,
    progress: referee::Progress<G>,
) -> Result<MatchReport, String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    if config.rounds == 0 {
        return Err("--rounds must be at least 1".into());
    }
    let jobs = schedule::<G>(config, gc)?;
    let total = jobs.len();
    let mut pgn_file = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open PGN file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut movelist_file = match &config.movelist {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open move-list file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let date = pgn_date();
    let tc_text = time_control_text(&config.tc);

    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    for job in jobs {
        let _ = job_tx.send(job);
    }
    drop(job_tx);
    let (res_tx, res_rx) = crossbeam_channel::unbounded();
    let stop = Arc::new(AtomicBool::new(false));
    let mut by_index: Vec<Option<GameRecord>> = vec![None; total];
    let mut report = MatchReport {
        engines: empty_tally(config),
        ..MatchReport::default()
    };
    let mut first_error = None;

    thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64).min(total.max(1)) {
            let job_rx = job_rx.clone();
            let res_tx = res_tx.clone();
            let stop = Arc::clone(&stop);
            scope.spawn(move || worker::<G>(config, &gc, progress, &job_rx, &res_tx, &stop));
        }
        drop(res_tx);
        let mut done = 0usize;
        while let Ok((index, result)) = res_rx.recv() {
            let rec = match result {
                Ok(r) => r,
                Err(e) => {
                    first_error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            if let Some(file) = pgn_file.as_mut() {
                let header = pgn::PgnHeader {
                    event: &config.event,
                    round: index + 1,
                    names: &names,
                    date: &date,
                    time_control: &tc_text,
                };
                let _ = file.write_all(pgn::write_pgn::<G>(&rec, &header, &gc).as_bytes());
            }
            if let Some(file) = movelist_file.as_mut() {
                let _ = file.write_all(movelist_line(index + 1, &rec, &names).as_bytes());
            }
            if !config.quiet {
                let seat_names: Vec<&str> = rec.seats.iter().map(|&e| names[e].as_str()).collect();
                println!(
                    "Finished game {} ({}): {} {{{}}}",
                    index + 1,
                    seat_names.join(" vs "),
                    rec.result_text(),
                    rec.reason
                );
            }
            done += 1;
            add_to_tally(&mut report.engines, &mut report.pairs, &rec);
            if let Some(slot) = by_index.get_mut(index) {
                *slot = Some(rec);
            }
            if let Some(sprt) = config.sprt {
                let wdl = report.pair(0, 1);
                let decision = sprt.decision(&wdl);
                report.sprt = Some((sprt.llr(&wdl), decision));
                if decision != SprtDecision::Continue && !stop.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                    report.stopped_early = done < total;
                }
            }
            if !config.quiet {
                println!("{}", progress_line(config, &report, done, total));
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

/// One line of the move-list output (see [`MatchConfig::movelist`]).
pub fn movelist_line(number: usize, rec: &GameRecord, names: &[String]) -> String {
    let seat_names: Vec<&str> = rec
        .seats
        .iter()
        .map(|&e| names.get(e).map_or("?", String::as_str))
        .collect();
    let points: Vec<String> = rec.points.iter().map(|p| format!("{p:.3}")).collect();
    let moves: Vec<&str> = rec
        .opening
        .moves
        .iter()
        .chain(rec.moves.iter())
        .map(String::as_str)
        .collect();
    format!(
        "{number}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        seat_names.join(","),
        rec.result_text(),
        points.join(","),
        rec.opening.fen,
        moves.join(" "),
        rec.reason.replace(['\t', '\n'], " ")
    )
}

/// The final table: per-engine totals and failures, head-to-head Elo, SPRT state.
pub fn summary(config: &MatchConfig, report: &MatchReport) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "\n{} games of {} finished{}\n",
        report.records.len(),
        config.game.name(),
        if report.stopped_early {
            " (stopped: SPRT decided)"
        } else {
            ""
        }
    ));
    s.push_str(
        "Rank Name                     Games  Points    W    D    L  Illegal Time Crash Hang\n",
    );
    let mut order: Vec<&EngineTally> = report.engines.iter().collect();
    order.sort_by(|a, b| b.points.total_cmp(&a.points));
    for (rank, t) in order.iter().enumerate() {
        s.push_str(&format!(
            "{:>4} {:<24} {:>5} {:>7.2} {:>4} {:>4} {:>4}  {:>7} {:>4} {:>5} {:>4}\n",
            rank + 1,
            t.name,
            t.games,
            t.points,
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses,
            t.illegal,
            t.time_losses,
            t.crashes,
            t.hangs
        ));
    }
    for &(i, j, wdl) in &report.pairs {
        s.push_str(&format!(
            "{} vs {}: +{} ={} -{}",
            config.engines[i].name, config.engines[j].name, wdl.wins, wdl.draws, wdl.losses
        ));
        if let Some(e) = stats::elo_estimate(&wdl) {
            s.push_str(&format!(
                "  score {:.1}%  Elo {:+.1} +/- {:.1} (95%)  LOS {:.1}%  draws {:.1}%",
                e.score * 100.0,
                e.elo,
                e.error,
                e.los * 100.0,
                e.draw_ratio * 100.0
            ));
        }
        s.push('\n');
    }
    if let (Some(sprt), Some((llr, decision))) = (config.sprt, report.sprt) {
        s.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} bounds [{:.3}, {:.3}] {}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            sprt.lower_bound(),
            sprt.upper_bound(),
            match decision {
                SprtDecision::Continue => "undecided",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::AcceptH1 => "H1 accepted",
            }
        ));
    }
    s
}
