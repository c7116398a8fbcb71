//! Command-line arguments of `sanqi match`.

use std::path::PathBuf;
use std::time::Duration;

use super::config::{
    default_limits, DrawAdjudication, EngineSpec, MatchConfig, OpeningSource, ResignAdjudication,
    TablebaseAdjudication,
};
use super::proto::Proto;
use super::stats::Sprt;
use super::timecontrol::TimeControl;
use crate::game::{GameConfigs, GameKind};

/// The setup an engine with `proto=uci-fsf` starts from, where the game has these setup flags:
/// Fairy-Stockfish writes xiangqi ranks 1-10. Its own `KEY=VALUE`s come after and win.
const FSF_SETUP: &[(&str, &str)] = &[("ranks", "1-10")];

/// The help text, with every game's setup flags from the registry.
pub fn usage() -> String {
    let mut s = USAGE.to_owned();
    s.push_str("\nsetup flags (match-wide as --FLAG [VALUE], per engine as FLAG=VALUE):");
    for &kind in GameKind::ALL {
        let flags = GameConfigs::flags_help(kind);
        if !flags.is_empty() {
            s.push_str(&format!("\n  {:<16} {}", kind.name(), flags.join(" ")));
        }
    }
    s
}

/// The help text without the setup flags.
const USAGE: &str = "\
usage: sanqi match --game chess|xiangqi|chinesecheckers [SETUP FLAGS of the game]
         --engine cmd=PROG [name=NAME] [arg=ARG]... [dir=DIR] [proto=uci|ucci|uci-fsf]
                  [FLAG=VALUE]... [option.NAME=VALUE]... [tc=..|movetime=MS|nodes=N|depth=N]
         --engine ...                      (two or more engines)
         [--each KEY=VALUE...]             keys of --engine applied to every engine
         [--tc [MOVES/]BASE[+INC] | --movetime MS | --nodes N | --depth N]
                                           BASE and INC in seconds (10+0.1, 40/60, 1:30+1)
         [--rounds N]                      rounds; each plays every pairing from one opening (1)
         [--games-per-opening N]           colours swapped / seats rotated (default: seats)
         [--concurrency N]                 games at the same time (1)
         [--openings FILE] [--order sequential|random]   EPD or FEN lines, optional `moves ...`;
                                           FILE.pgn: the games' first plies; FILE.bin
                                           (chess): Polyglot book lines, weighted random
         [--book-depth N]                  plies of a .bin line (8) or of each .pgn game (all)
         [--random-plies N] [--seed N]     random openings of N plies (seeded), kept only if
         [--random-balance CP]             sanqi's static eval is within +-CP (100; 0: any)
         [--pgn FILE] [--event TEXT]       append game records (PGN; ICCS for xiangqi)
         [--movelist FILE]                 append one tab-separated line per game (any game)
         [--margin MS]                     time beyond the clock before a time loss (100)
         [--hang-grace MS]                 wait past the time limit before a hang (5000)
         [--unclocked-timeout MS]          wait for a nodes/depth move before a hang (60000)
         [--ready-timeout MS]              wait for uciok/readyok at start and between games (10000)
         [--max-plies N]                   ply cap: draw, or stall for 3+ players
                                           (default: none; for games with a progress
                                           measure, Chinese checkers, 200 per seat)
         [--stall-plies N]                 stall (draw) when no side got closer to its goal
                                           in N plies (Chinese checkers: distance to the
                                           target; default 40 per seat), or for other games
                                           when N plies reach no new position; 0: off
         [--tb PATH] [--tb-pieces N] [--tb-ignore50]   (chess) adjudicate positions the
                                           Syzygy tables in PATH (folders split by :) know:
                                           up to N pieces (all), spoilt wins as wins
         [--draw movenumber=N movecount=N score=CP]
         [--resign movecount=N score=CP]
         [--sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]]   stop when decided
         [--quiet]
proto=uci-fsf: Fairy-Stockfish (UCI_Variant always sent; xiangqi ranks=1-10 by default).
FLAG=VALUE on an engine: that engine's own setup (ranks=1-10: it reads and writes xiangqi ranks
1-10); setup options that differ from the default are sent to each engine with setoption.
proto=ucci: UCCI engines (ElephantEye); usemillisec is used when the engine offers it.";

/// What the arguments ask for.
#[derive(Debug)]
pub enum Parsed {
    /// Play this match.
    Run(Box<MatchConfig>),
    /// Print the help.
    Help,
}

fn key_value(token: &str) -> Result<(&str, &str), String> {
    token
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got `{token}`"))
}

fn number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("bad value `{text}` for {what}"))
}

fn float(what: &str, text: &str) -> Result<f64, String> {
    let v: f64 = number(what, text)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(format!("bad value `{text}` for {what}"))
    }
}

/// Sets the engine's own setup flag `flag` to `value` (a later value replaces an earlier one).
/// `Ok(false)`: `flag` is no setup flag of `game`.
fn set_engine_setup(
    spec: &mut EngineSpec,
    game: GameKind,
    flag: &str,
    value: &str,
) -> Result<bool, String> {
    let Some(index) = game.setup().iter().position(|o| o.flag == flag) else {
        return Ok(false);
    };
    // Checked now, so that a bad value is a command-line error.
    GameConfigs::default()
        .set(game, index, Some(value))
        .map_err(|e| format!("{flag}={value}: {e}"))?;
    spec.setup.retain(|(k, _)| k != flag);
    spec.setup.push((flag.to_owned(), value.to_owned()));
    Ok(true)
}

/// Applies one `key=value` of `--engine` or `--each` to a spec.
fn apply_engine_key(
    spec: &mut EngineSpec,
    game: GameKind,
    key: &str,
    value: &str,
    named: &mut bool,
) -> Result<(), String> {
    if let Some(name) = key.strip_prefix("option.") {
        if name.is_empty() {
            return Err("empty option name in `option.=`".into());
        }
        spec.options.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        spec.options.push((name.to_owned(), value.to_owned()));
        return Ok(());
    }
    if let Some(tc) = TimeControl::parse_key(key, value) {
        spec.tc = Some(tc?);
        return Ok(());
    }
    match key {
        "cmd" => spec.cmd = value.to_owned(),
        "name" => {
            spec.name = value.to_owned();
            *named = true;
        }
        "arg" => spec.args.push(value.to_owned()),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        "proto" => {
            spec.proto = Proto::from_name(value)
                .ok_or_else(|| format!("unknown proto `{value}` (uci, ucci, uci-fsf)"))?;
            if spec.proto == Proto::UciFsf {
                for (flag, v) in FSF_SETUP {
                    set_engine_setup(spec, game, flag, v)?;
                }
            }
        }
        _ => {
            if !set_engine_setup(spec, game, key, value)? {
                return Err(format!("unknown engine key `{key}`"));
            }
        }
    }
    Ok(())
}

/// Reads the match-wide setup flag `flag` with its `values` into `setup`.
fn read_setup_flag(
    setup: &mut GameConfigs,
    game: GameKind,
    flag: &str,
    values: &[String],
) -> Result<(), String> {
    let args: Vec<String> = std::iter::once(flag.to_owned())
        .chain(values.iter().cloned())
        .collect();
    let mut i = 0;
    if !setup.read_flag(game, &args, &mut i)? {
        let other = GameKind::ALL.iter().find(|k| {
            k.setup()
                .iter()
                .any(|o| Some(o.flag) == flag.strip_prefix("--"))
        });
        return Err(match other {
            Some(k) => format!("{flag} is for {} only, not {}", k.name(), game.name()),
            None => format!("unknown argument `{flag}`"),
        });
    }
    if i + 1 != args.len() {
        return Err(if i == 0 {
            format!("{flag} takes no value")
        } else {
            format!("{flag} takes one value")
        });
    }
    Ok(())
}

/// The values following an option up to the next `--option`.
fn values<'a>(args: &'a [String], i: &mut usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    while let Some(a) = args.get(*i) {
        if a.starts_with("--") {
            break;
        }
        out.push(a.as_str());
        *i += 1;
    }
    out
}

fn one<'a>(flag: &str, vals: &[&'a str]) -> Result<&'a str, String> {
    match vals {
        [v] => Ok(v),
        _ => Err(format!("{flag} takes one value")),
    }
}

/// Reads the `KEY=VALUE` tokens of `option` with `set`, which answers `Ok(false)` for a key it
/// does not know.
fn read_keys(
    option: &str,
    vals: &[&str],
    mut set: impl FnMut(&str, &str) -> Result<bool, String>,
) -> Result<(), String> {
    for token in vals {
        let (k, v) = key_value(token)?;
        if !set(k, v)? {
            return Err(format!("unknown {option} key `{k}`"));
        }
    }
    Ok(())
}

/// The values of `--draw movenumber=N movecount=N score=CP`.
fn parse_draw(vals: &[&str]) -> Result<DrawAdjudication, String> {
    let mut d = DrawAdjudication {
        move_number: 40,
        move_count: 8,
        score: 10,
    };
    read_keys("--draw", vals, |k, v| {
        match k {
            "movenumber" => d.move_number = number(k, v)?,
            "movecount" => d.move_count = number(k, v)?,
            "score" => d.score = number(k, v)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(d)
}

/// The values of `--resign movecount=N score=CP`.
fn parse_resign(vals: &[&str]) -> Result<ResignAdjudication, String> {
    let mut r = ResignAdjudication {
        move_count: 3,
        score: 1000,
    };
    read_keys("--resign", vals, |k, v| {
        match k {
            "movecount" => r.move_count = number(k, v)?,
            "score" => r.score = number(k, v)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(r)
}

/// The values of `--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]`, checked.
fn parse_sprt(vals: &[&str]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    read_keys("--sprt", vals, |k, v| {
        match k {
            "elo0" => s.elo0 = float(k, v)?,
            "elo1" => s.elo1 = float(k, v)?,
            "alpha" => s.alpha = float(k, v)?,
            "beta" => s.beta = float(k, v)?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0) {
        return Err("--sprt alpha and beta must lie strictly between 0 and 1".into());
    }
    if s.elo1 <= s.elo0 {
        return Err("--sprt needs elo1 > elo0".into());
    }
    Ok(s)
}

/// A duration of `flag`'s one value in milliseconds.
fn millis(flag: &str, vals: &[&str]) -> Result<Duration, String> {
    Ok(Duration::from_millis(number(flag, one(flag, vals)?)?))
}

/// Checks how many values an option that `parse` knows was given: one, but none for `--quiet`
/// and any number for those that take a list.
fn check_value_count(flag: &str, vals: &[&str]) -> Result<(), String> {
    if !matches!(
        flag,
        "--engine" | "--each" | "--draw" | "--resign" | "--sprt" | "--event" | "--quiet"
    ) && vals.len() > 1
    {
        return Err(format!("{flag} takes one value"));
    }
    if flag == "--quiet" && !vals.is_empty() {
        return Err(format!("{flag} takes no value"));
    }
    Ok(())
}

/// The engine `index` (from 0) of the match: `--each` keys, then its own `--engine` keys.
fn engine_spec(
    game: GameKind,
    index: usize,
    each: &[String],
    tokens: &[String],
) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec::new(format!("engine{}", index + 1), "");
    let mut named = false;
    for token in each.iter().chain(tokens.iter()) {
        let (k, v) = key_value(token)?;
        apply_engine_key(&mut spec, game, k, v, &mut named)?;
    }
    if spec.cmd.is_empty() {
        return Err(format!("engine {} has no cmd=", index + 1));
    }
    if !named {
        spec.name = std::path::Path::new(&spec.cmd)
            .file_name()
            .map_or_else(|| spec.cmd.clone(), |f| f.to_string_lossy().into_owned());
    }
    Ok(spec)
}

/// Numbers engines of equal names (`name-2`), which would make the tables ambiguous.
fn number_equal_names(engines: &mut [EngineSpec]) {
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    for (i, e) in engines.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == e.name).count() > 1 {
            e.name = format!("{}-{}", e.name, i + 1);
        }
    }
}

/// What `parse` has read so far: what depends on the game waits until the end.
struct Reading {
    /// The game of `--game`.
    game: Option<GameKind>,
    /// Setup flags, read once the game is known: (flag, values).
    setup_flags: Vec<(String, Vec<String>)>,
    /// The tokens of each `--engine`, with its index.
    engines: Vec<(Vec<String>, usize)>,
    /// The tokens of `--each`.
    each: Vec<String>,
    /// The match-wide time control.
    tc: Option<TimeControl>,
    /// The configuration, its game a placeholder until `finish`.
    config: MatchConfig,
    /// Whether `--max-plies` was given (else the game's default).
    max_plies_set: bool,
    /// Whether `--stall-plies` was given (else the game's default).
    stall_plies_set: bool,
    /// The file of `--openings`.
    openings_file: Option<PathBuf>,
    /// The plies of `--random-plies`.
    random_plies: Option<usize>,
    /// `--book-depth`.
    book_depth: Option<usize>,
    /// `--tb-pieces`.
    tb_pieces: Option<usize>,
    /// `--tb-ignore50`.
    tb_ignore50: bool,
}

impl Reading {
    /// Nothing read yet.
    fn new() -> Result<Self, String> {
        // The game is set once `--game` is read; any registered game stands in until then.
        let placeholder = GameKind::ALL
            .first()
            .copied()
            .ok_or("no games registered")?;
        let mut config = MatchConfig::new(placeholder, Vec::new(), TimeControl::MoveTime(100));
        config.quiet = false;
        Ok(Self {
            game: None,
            setup_flags: Vec::new(),
            engines: Vec::new(),
            each: Vec::new(),
            tc: None,
            config,
            max_plies_set: false,
            stall_plies_set: false,
            openings_file: None,
            random_plies: None,
            book_depth: None,
            tb_pieces: None,
            tb_ignore50: false,
        })
    }

    /// Reads an option of the match as a whole. `Ok(false)`: `flag` is none of them.
    fn read_match_flag(&mut self, flag: &str, vals: &[&str]) -> Result<bool, String> {
        let config = &mut self.config;
        match flag {
            "--game" => {
                let v = one(flag, vals)?;
                self.game = Some(GameKind::from_name(v).ok_or_else(|| {
                    format!("unknown game `{v}` (chess, xiangqi, chinesecheckers)")
                })?);
            }
            "--engine" => self.engines.push((
                vals.iter().map(|s| (*s).to_owned()).collect(),
                self.engines.len(),
            )),
            "--each" => self.each.extend(vals.iter().map(|s| (*s).to_owned())),
            "--tc" => self.tc = Some(TimeControl::parse_tc(one(flag, vals)?)?),
            "--movetime" | "--nodes" | "--depth" => {
                let key = &flag[2..];
                self.tc = Some(
                    TimeControl::parse_key(key, one(flag, vals)?)
                        .unwrap_or_else(|| Err(String::new()))?,
                );
            }
            "--rounds" => config.rounds = number(flag, one(flag, vals)?)?,
            "--games-per-opening" | "--games" => {
                config.games_per_opening = Some(number(flag, one(flag, vals)?)?);
            }
            "--concurrency" => config.concurrency = number(flag, one(flag, vals)?)?,
            "--openings" => self.openings_file = Some(PathBuf::from(one(flag, vals)?)),
            "--order" => {
                config.random_order = match one(flag, vals)? {
                    "random" => true,
                    "sequential" => false,
                    v => return Err(format!("--order must be sequential or random, not `{v}`")),
                }
            }
            "--book-depth" => {
                self.book_depth = Some(number::<usize>(flag, one(flag, vals)?)?);
            }
            "--random-plies" => {
                self.random_plies = Some(number::<usize>(flag, one(flag, vals)?)?);
            }
            "--random-balance" => {
                let cp: i32 = number(flag, one(flag, vals)?)?;
                config.random_balance = (cp > 0).then_some(cp);
            }
            "--seed" => config.seed = number(flag, one(flag, vals)?)?,
            "--pgn" => config.pgn = Some(PathBuf::from(one(flag, vals)?)),
            "--movelist" => config.movelist = Some(PathBuf::from(one(flag, vals)?)),
            "--event" => config.event = vals.join(" "),
            "--sprt" => config.sprt = Some(parse_sprt(vals)?),
            "--quiet" => config.quiet = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Reads an option of the referee (time-outs, ply limits, adjudication). `Ok(false)`: `flag`
    /// is none of them.
    fn read_referee_flag(&mut self, flag: &str, vals: &[&str]) -> Result<bool, String> {
        let referee = &mut self.config.referee;
        match flag {
            "--unclocked-timeout" => referee.unclocked_timeout = millis(flag, vals)?,
            "--margin" => referee.margin = millis(flag, vals)?,
            "--hang-grace" => referee.hang_grace = millis(flag, vals)?,
            "--ready-timeout" => referee.ready_timeout = millis(flag, vals)?,
            "--max-plies" => {
                referee.max_plies = Some(number(flag, one(flag, vals)?)?);
                self.max_plies_set = true;
            }
            "--stall-plies" => {
                let n: u32 = number(flag, one(flag, vals)?)?;
                referee.stall_plies = (n > 0).then_some(n);
                self.stall_plies_set = true;
            }
            "--tb" => {
                let path = one(flag, vals)?.to_owned();
                let tb = referee.tablebase.get_or_insert(TablebaseAdjudication {
                    path: String::new(),
                    max_pieces: 0,
                    ignore_50_move_rule: false,
                });
                tb.path = path;
            }
            "--tb-pieces" => {
                let n: usize = number(flag, one(flag, vals)?)?;
                self.tb_pieces = Some(n);
            }
            "--tb-ignore50" => self.tb_ignore50 = true,
            "--draw" => referee.draw = Some(parse_draw(vals)?),
            "--resign" => referee.resign = Some(parse_resign(vals)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The configuration, once all options are read and the game is known.
    fn finish(self) -> Result<MatchConfig, String> {
        let mut config = self.config;
        let game = self.game.ok_or("--game is required")?;
        config.game = game;
        for (flag, vals) in &self.setup_flags {
            read_setup_flag(&mut config.setup, game, flag, vals)?;
        }
        match &mut config.referee.tablebase {
            Some(tb) => {
                if game != GameKind::Chess {
                    return Err("--tb: endgame tables are for chess only".into());
                }
                tb.max_pieces = self.tb_pieces.unwrap_or(0);
                tb.ignore_50_move_rule = self.tb_ignore50;
            }
            None if self.tb_pieces.is_some() || self.tb_ignore50 => {
                return Err("--tb-pieces and --tb-ignore50 need --tb PATH".into())
            }
            None => {}
        }
        let (max_plies, stall_plies) = default_limits(game, &config.setup);
        if !self.max_plies_set {
            config.referee.max_plies = max_plies;
        }
        if !self.stall_plies_set {
            config.referee.stall_plies = stall_plies;
        }
        config.tc = self.tc.unwrap_or(TimeControl::Clock {
            moves: None,
            base_ms: 10_000,
            inc_ms: 100,
        });
        if self.engines.len() < 2 {
            return Err("at least two --engine are needed".into());
        }
        for (tokens, index) in &self.engines {
            config
                .engines
                .push(engine_spec(game, *index, &self.each, tokens)?);
        }
        number_equal_names(&mut config.engines);
        config.openings = match (self.openings_file, self.random_plies) {
            (Some(_), Some(_)) => {
                return Err("--openings and --random-plies exclude each other".into())
            }
            (Some(f), None) => {
                let ext = f
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase());
                match ext.as_deref() {
                    Some("bin") => OpeningSource::Book(f, self.book_depth.unwrap_or(8)),
                    Some("pgn") => OpeningSource::Pgn(f, self.book_depth),
                    _ => OpeningSource::File(f),
                }
            }
            (None, Some(p)) => OpeningSource::Random(p),
            (None, None) => OpeningSource::StartPos,
        };
        if config.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        Ok(config)
    }
}

/// Parses the arguments after `match`.
///
/// # Errors
/// A message naming the bad argument.
pub fn parse(args: &[String]) -> Result<Parsed, String> {
    let mut reading = Reading::new()?;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        let vals = values(args, &mut i);
        if matches!(flag, "--help" | "-h") {
            return Ok(Parsed::Help);
        }
        if reading.read_match_flag(flag, &vals)? || reading.read_referee_flag(flag, &vals)? {
            check_value_count(flag, &vals)?;
        } else {
            reading.setup_flags.push((
                flag.to_owned(),
                vals.iter().map(|v| (*v).to_owned()).collect(),
            ));
        }
    }
    reading.finish().map(|config| Parsed::Run(Box::new(config)))
}
