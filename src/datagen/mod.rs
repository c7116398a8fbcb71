//! `sanqi datagen`: self-play training data for any registered two-player game.
//!
//! Every worker thread plays its own games with its own [`Searcher`] (transposition table and
//! histories): a random opening of `--random-plies` legal moves (from a random numbered start
//! position where the setup has several, as Chess960), then a search of `--nodes`/`--depth` per
//! move. Games end by the game's rules ([`crate::game::Rules::outcome`]), by win adjudication
//! (a huge score for several plies), draw adjudication (a long stretch of zero scores late in
//! the game) or the ply cap. Kept positions (not in check, best move not noisy, no mate score)
//! are written as `<fen> | <score> | <result>`, score and result from the first player's point
//! of view: the text format of the bullet trainer (`bulletformat`). Each finished game is written
//! with one `write` call on the unbuffered file, so an interrupt loses only the games in progress;
//! then it is recorded in `FILE.games`, which lets `--append` continue with new games
//! ([`resume`]).

pub mod genfens;
pub mod resume;
pub mod selfplay;

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::cli::{number, positive};
use crate::game::registry::ConfigOf;
use crate::game::{with_kind, Game, GameConfigs, GameKind, Rules};
use crate::search::Searcher;

pub use selfplay::{analyse, play_game, Analysis, Ending, GameRecord, PlaySettings};

/// Nodes per move when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 5000;

/// Everything `sanqi datagen` was asked.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The game.
    pub kind: GameKind,
    /// Its setup (`--chess960`, `--players 2`...).
    pub configs: GameConfigs,
    /// How games are played and adjudicated.
    pub play: PlaySettings,
    /// Worker threads, each with its own games and searcher.
    pub threads: usize,
    /// Stop after this many games.
    pub games: Option<u64>,
    /// Stop after this many positions (the last game is cut to fit).
    pub positions: Option<u64>,
    /// Seed of the openings.
    pub seed: u64,
    /// `--seed` was given (appending to a file without a record of its games needs it).
    pub seed_given: bool,
    /// The output file.
    pub out: String,
    /// Add to an existing file instead of refusing it.
    pub append: bool,
    /// Search with the hand-written evaluations instead of the networks (`Use NNUE` off).
    pub no_nnue: bool,
    /// Transposition table per thread, MiB.
    pub hash_mb: usize,
    /// Seconds between progress lines.
    pub report_secs: f64,
}

/// The `sanqi datagen --help` text.
pub fn usage() -> String {
    let mut flags = String::new();
    for &kind in GameKind::ALL {
        let f = GameConfigs::flags_help(kind);
        if !f.is_empty() {
            flags.push_str(&format!("  {}  ({})\n", f.join(" "), kind.name()));
        }
    }
    let d = PlaySettings::default();
    format!(
        "usage: sanqi datagen --game <{games}> --out FILE [options]

Self-play data for training: one line per kept position, `<fen> | <score> | <result>`, score
(centipawn-like) and result (1.0, 0.5, 0.0) from the point of view of the side that moves first
(white, red, the first seat). Two-player games only. Each finished game is written at once, so
Ctrl-C loses only the games in progress. Without --games or --positions it runs until stopped.

  --game NAME           the game (default {default})
  --out FILE            output file; an existing file is refused unless --append
  --append              add to FILE if it exists: new games only (FILE.games records the games
                        written; those of the seed are skipped, a game cut short is removed)
  --no-nnue             search with the hand-written evaluation, not the network (Use NNUE off)
  --nodes N             nodes per move (default {nodes} when --depth is not given)
  --depth N             depth per move (with --nodes, whichever comes first)
  --threads N           worker threads, each with its own games and table (default 1)
  --games N             stop after N games (written by this run)
  --positions N         stop after N positions (by this run; the last game is cut to fit)
  --seed N              seed of the random openings (default 1); game i is the same for a seed
                        whatever the thread count
  --random-plies N      random legal moves before the search plays (default {rp})
  --opening-limit CP    discard an opening whose first search scores beyond +-CP (default {ol})
  --win-score CP        win adjudication: |score| >= CP for the same side ... (default {ws})
  --win-plies N         ... for N plies in a row (default {wp}; 0: off)
  --draw-score CP       draw adjudication: |score| <= CP ... (default {ds})
  --draw-plies N        ... for N plies in a row (default {dp}; 0: off) ...
  --draw-after N        ... once the game is N plies long (default {da})
  --max-plies N         a game that reaches N plies is a draw (default {mp})
  --hash MB             transposition table per thread (default 8)
  --report SECONDS      progress line on stderr every SECONDS (default 10)
game setup flags (a random numbered start position each game where the setup has several):
{flags}
Kept positions: not in check, best move not noisy (a capture or promotion; Chinese checkers: a
long forward jump), no mate score, game not over.",
        games = GameKind::NAMES.join("|"),
        default = crate::game::registry::DEFAULT_GAME.name(),
        nodes = DEFAULT_NODES,
        rp = d.random_plies,
        ol = d.opening_limit,
        ws = d.win_score,
        wp = d.win_plies,
        ds = d.draw_score,
        dp = d.draw_plies,
        da = d.draw_after,
        mp = d.max_plies,
    )
}

/// Reads the command line (after `datagen`). `Ok(None)`: `--help` was asked.
pub fn parse_args(args: &[String]) -> Result<Option<DatagenConfig>, String> {
    if crate::cli::asks_help(args) {
        return Ok(None);
    }
    let kind = crate::cli::game_arg(args)?;
    let mut c = DatagenConfig {
        kind,
        configs: GameConfigs::default(),
        play: PlaySettings::default(),
        threads: 1,
        games: None,
        positions: None,
        seed: 1,
        seed_given: false,
        out: String::new(),
        append: false,
        no_nnue: false,
        hash_mb: 8,
        report_secs: 10.0,
    };
    crate::cli::read_tool_flags(args, kind, &mut c.configs, |flag, value| {
        let mut takes_value = true;
        match flag {
            "--out" => {
                c.out = value
                    .filter(|v| !v.is_empty())
                    .ok_or("--out needs a file name")?
                    .clone()
            }
            "--append" => {
                c.append = true;
                takes_value = false;
            }
            "--no-nnue" => {
                c.no_nnue = true;
                takes_value = false;
            }
            "--nodes" => c.play.nodes = Some(positive(flag, value)?),
            "--depth" => {
                let d: u32 = positive(flag, value)?;
                c.play.depth = Some(d.min(crate::search::MAX_DEPTH));
            }
            "--threads" => c.threads = positive::<usize>(flag, value)?.min(256),
            "--games" => c.games = Some(positive(flag, value)?),
            "--positions" => c.positions = Some(positive(flag, value)?),
            "--seed" => {
                c.seed = number(flag, value)?;
                c.seed_given = true;
            }
            "--random-plies" => c.play.random_plies = number::<usize>(flag, value)?.min(1000),
            "--opening-limit" => c.play.opening_limit = number(flag, value)?,
            "--win-score" => c.play.win_score = positive(flag, value)?,
            "--win-plies" => c.play.win_plies = number(flag, value)?,
            "--draw-score" => c.play.draw_score = number(flag, value)?,
            "--draw-plies" => c.play.draw_plies = number(flag, value)?,
            "--draw-after" => c.play.draw_after = number(flag, value)?,
            "--max-plies" => c.play.max_plies = positive(flag, value)?,
            "--hash" => c.hash_mb = positive::<usize>(flag, value)?.min(65536),
            "--report" => {
                let s: f64 = number(flag, value)?;
                if !(s > 0.0 && s.is_finite()) {
                    return Err("--report takes a positive number of seconds".into());
                }
                c.report_secs = s;
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        Ok(takes_value)
    })?;
    if c.out.is_empty() {
        return Err("--out FILE is required".into());
    }
    if c.play.nodes.is_none() && c.play.depth.is_none() {
        c.play.nodes = Some(DEFAULT_NODES);
    }
    if c.play.opening_limit < 0 || c.play.draw_score < 0 {
        return Err("--opening-limit and --draw-score must not be negative".into());
    }
    let players = with_kind!(kind, G => {
        <G as Rules>::startpos(c.configs.get::<G>()).num_players()
    });
    if players != 2 {
        return Err(format!(
            "datagen plays two-player games only; this setup of {} has {players} players",
            kind.name()
        ));
    }
    Ok(Some(c))
}

/// `sanqi datagen ...`: returns the process exit code.
pub fn main(args: &[String]) -> ExitCode {
    let config = match crate::cli::tool_config("datagen", parse_args(args), usage) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if config.no_nnue {
        crate::nnue::set_enabled(false);
    }
    match run(&config) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sanqi datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Results of the first player: wins, draws, losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Seconds.
    pub seconds: f64,
}

struct Shared {
    /// The data file and its record of games.
    out: Mutex<(File, File)>,
    next_game: AtomicU64,
    /// Games started by this run (for `--games`).
    started: AtomicU64,
    /// Games of the seed already in the file (`--append`): skipped.
    done: HashSet<u64>,
    games: AtomicU64,
    positions: AtomicU64,
    results: [AtomicU64; 3],
    endings: [AtomicU64; 4],
    discarded: AtomicU64,
    stop: AtomicBool,
    error: Mutex<Option<String>>,
}

fn ending_index(e: Ending) -> usize {
    match e {
        Ending::Rules => 0,
        Ending::WinAdjudication => 1,
        Ending::DrawAdjudication => 2,
        Ending::PlyCap => 3,
    }
}

impl Shared {
    /// Writes one finished game (cut to the positions still wanted); false once nothing more
    /// is wanted.
    fn write_game(&self, index: u64, seed: u64, record: &GameRecord, limit: Option<u64>) -> bool {
        let mut guard = self.out.lock();
        let (file, games) = &mut *guard;
        let written = self.positions.load(Relaxed);
        let room = limit.map_or(u64::MAX, |l| l.saturating_sub(written));
        if room == 0 {
            return false;
        }
        let take = (record.positions.len() as u64).min(room) as usize;
        let cut = GameRecord {
            positions: record.positions[..take].to_vec(),
            ..record.clone()
        };
        // The game's lines first, then its record: a game is in the record only when all its
        // lines are in the file.
        let line = resume::record_line(index, seed, take);
        if let Err(e) = file
            .write_all(cut.lines().as_bytes())
            .and_then(|_| file.flush())
            .and_then(|_| games.write_all(line.as_bytes()))
        {
            *self.error.lock() = Some(format!("writing the output: {e}"));
            self.stop.store(true, Relaxed);
            return false;
        }
        self.positions.fetch_add(take as u64, Relaxed);
        self.games.fetch_add(1, Relaxed);
        let r = if record.result > 0.75 {
            0
        } else if record.result < 0.25 {
            2
        } else {
            1
        };
        self.results[r].fetch_add(1, Relaxed);
        self.endings[ending_index(record.ending)].fetch_add(1, Relaxed);
        self.discarded
            .fetch_add(u64::from(record.discarded_openings), Relaxed);
        limit.is_none_or(|l| written + (take as u64) < l)
    }
}

fn worker<G: Game>(config: &DatagenConfig, shared: &Shared)
where
    GameConfigs: ConfigOf<G>,
{
    let game_config = *config.configs.get::<G>();
    let mut searcher = Searcher::new(config.hash_mb);
    let stop = || shared.stop.load(Relaxed);
    loop {
        if stop() {
            return;
        }
        let n = loop {
            let n = shared.next_game.fetch_add(1, Relaxed);
            if !shared.done.contains(&n) {
                break n;
            }
        };
        if config
            .games
            .is_some_and(|g| shared.started.fetch_add(1, Relaxed) >= g)
        {
            return;
        }
        let Some(record) = play_game::<G>(
            &game_config,
            &config.play,
            &mut searcher,
            config.seed,
            n,
            &stop,
        ) else {
            if !stop() {
                *shared.error.lock() = Some(
                    "could not find an opening that is not decided \
                     (try fewer --random-plies or a larger --opening-limit)"
                        .into(),
                );
                shared.stop.store(true, Relaxed);
            }
            return;
        };
        if !shared.write_game(n, config.seed, &record, config.positions) {
            shared.stop.store(true, Relaxed);
            return;
        }
    }
}

fn progress_line(shared: &Shared, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let positions = shared.positions.load(Relaxed);
    format!(
        "datagen: {} games, {} positions, {:.0} positions/s, {:.0} s",
        shared.games.load(Relaxed),
        positions,
        positions as f64 / secs.max(1e-9),
        secs
    )
}

/// Runs data generation (progress and the summary on stderr).
pub fn run(config: &DatagenConfig) -> Result<Summary, String> {
    let games_path = resume::record_path(&config.out);
    let mut file = if config.append {
        if std::fs::metadata(&config.out).is_ok_and(|m| !m.is_file()) {
            return Err(format!("{} is not a regular file", config.out));
        }
        OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&config.out)
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&config.out)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    std::io::Error::new(e.kind(), "it exists (use --append to add to it)")
                } else {
                    e
                }
            })
    }
    .map_err(|e| format!("cannot open {}: {e}", config.out))?;
    let resumed = if config.append {
        let r = resume::prepare(&config.out, &mut file, config.seed, config.seed_given)?;
        if r.positions > 0 || r.removed > 0 {
            eprintln!(
                "datagen: appending to {}: it holds {} positions, {} games of seed {} (skipped: \
                 this run plays new games only) and {} of other seeds{}",
                config.out,
                r.positions,
                r.done.len(),
                config.seed,
                r.other_seeds,
                if r.removed > 0 {
                    format!(
                        "; removed {} lines of a game cut short (not in {games_path})",
                        r.removed
                    )
                } else {
                    String::new()
                }
            );
        }
        r
    } else {
        // A new data file starts a new record (an old one beside it belongs to no file now).
        resume::Resume::default()
    };
    let games_file = OpenOptions::new()
        .create(true)
        .append(true)
        .truncate(false)
        .open(&games_path)
        .map_err(|e| format!("cannot open {games_path}: {e}"))?;
    if !config.append {
        games_file
            .set_len(0)
            .map_err(|e| format!("cannot open {games_path}: {e}"))?;
    }
    let shared = Shared {
        out: Mutex::new((file, games_file)),
        next_game: AtomicU64::new(0),
        started: AtomicU64::new(0),
        done: resumed.done,
        games: AtomicU64::new(0),
        positions: AtomicU64::new(0),
        results: Default::default(),
        endings: Default::default(),
        discarded: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        error: Mutex::new(None),
    };
    let start = Instant::now();
    eprintln!(
        "datagen: {} {:?}, {} per move, {} thread(s), seed {}, to {}",
        config.kind.name(),
        config
            .configs
            .non_default(config.kind)
            .iter()
            .map(|(o, v)| format!("{}={v}", o.flag))
            .collect::<Vec<_>>(),
        match (config.play.nodes, config.play.depth) {
            (Some(n), Some(d)) => format!("{n} nodes or depth {d}"),
            (Some(n), None) => format!("{n} nodes"),
            (None, Some(d)) => format!("depth {d}"),
            (None, None) => "no limit".into(),
        },
        config.threads,
        config.seed,
        config.out
    );
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(0);
    std::thread::scope(|scope| {
        for t in 0..config.threads {
            let shared = &shared;
            let done = done_tx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .spawn_scoped(scope, move || {
                    with_kind!(config.kind, G => worker::<G>(config, shared));
                    drop(done);
                });
            if let Err(e) = spawned {
                *shared.error.lock() = Some(format!("cannot start a thread: {e}"));
                shared.stop.store(true, Relaxed);
            }
        }
        drop(done_tx);
        let every = Duration::from_secs_f64(config.report_secs);
        while let Err(crossbeam_channel::RecvTimeoutError::Timeout) = done_rx.recv_timeout(every) {
            eprintln!("{}", progress_line(&shared, start));
        }
    });
    let summary = Summary {
        games: shared.games.load(Relaxed),
        positions: shared.positions.load(Relaxed),
        wins: shared.results[0].load(Relaxed),
        draws: shared.results[1].load(Relaxed),
        losses: shared.results[2].load(Relaxed),
        seconds: start.elapsed().as_secs_f64(),
    };
    eprintln!("{}", progress_line(&shared, start));
    let e = &shared.endings;
    eprintln!(
        "datagen: results for the first player +{} ={} -{}; ended by rules {}, win adjudication {}, \
         draw adjudication {}, ply cap {}; {} decided openings discarded",
        summary.wins,
        summary.draws,
        summary.losses,
        e[0].load(Relaxed),
        e[1].load(Relaxed),
        e[2].load(Relaxed),
        e[3].load(Relaxed),
        shared.discarded.load(Relaxed)
    );
    if let Some(err) = shared.error.lock().take() {
        return Err(err);
    }
    Ok(summary)
}
