//! What a match is: the game and its setup, the engines, the time control, the openings, the
//! referee's settings and the outputs. Defaults live here too.

use std::path::PathBuf;
use std::time::Duration;

use super::proto::Proto;
use super::stats::Sprt;
use super::timecontrol::TimeControl;
use crate::game::{with_kind, GameConfigs, GameKind, Records, Rules, SetupInfo};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The start position of the game (with several numbered start positions, such as
    /// Chess960's, one drawn per round).
    StartPos,
    /// An EPD or FEN file.
    File(PathBuf),
    /// Random openings of this many plies from the start position.
    Random(usize),
    /// A Polyglot book (`.bin`): a line of weighted random book moves from the start position,
    /// at most this many plies, drawn per round.
    Book(PathBuf, usize),
    /// A PGN file: each game's start and its first plies (all with `None`).
    Pgn(PathBuf, Option<usize>),
}

/// How to start one engine and what to tell it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name (PGN tags, tables).
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub proto: Proto,
    /// The engine's own setup on top of the match's, as (setup flag, value) pairs of the game's
    /// setup options (`("ranks", "1-10")`: this engine reads and writes xiangqi moves with ranks
    /// 1-10). The referee reads the engine's moves and writes the moves it sends it in this setup,
    /// and tells the engine the options that differ from the default.
    pub setup: Vec<(String, String)>,
    /// Options sent with `setoption` after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Per-engine time control (overrides the match's).
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// A UCI engine run as `cmd` without arguments.
    pub fn new(name: impl Into<String>, cmd: impl Into<String>) -> Self {
        EngineSpec {
            name: name.into(),
            cmd: cmd.into(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Uci,
            setup: Vec::new(),
            options: Vec::new(),
            tc: None,
        }
    }
}

/// Draw adjudication by score (cutechess semantics): from full move `move_number` on, when both
/// sides reported `|score| <= score` for `move_count` consecutive moves each, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// First full move at which adjudication may happen.
    pub move_number: u32,
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Score bound (centipawns).
    pub score: i32,
}

/// Resign adjudication by score: a side that reported `score <= -score` for `move_count`
/// consecutive own moves loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive own moves.
    pub move_count: u32,
    /// Score bound (centipawns).
    pub score: i32,
}

/// Referee settings of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct RefereeSettings {
    /// Time beyond the clock an engine may use before it loses on time.
    pub margin: Duration,
    /// Extra wait after the time limit (plus margin) before an engine counts as hung and is killed.
    pub hang_grace: Duration,
    /// The whole wait for a move under a node or depth limit before the engine counts as hung.
    pub unclocked_timeout: Duration,
    /// Time allowed for `uciok`/`readyok` at start and between games.
    pub ready_timeout: Duration,
    /// Ply cap counted from the start of the game (engine moves only). `None`: none.
    pub max_plies: Option<u32>,
    /// Plies in a row without progress (or a new position, or with a threefold repetition)
    /// before a stall.
    pub stall_plies: Option<u32>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Endgame-table adjudication (`--tb`).
    pub tablebase: Option<TablebaseAdjudication>,
}

/// `--tb PATH [--tb-pieces N] [--tb-ignore50]`: a game whose position the tables know ends with
/// their result (as fastchess's `-tb`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablebaseAdjudication {
    /// The tables' folders (separated by `:`).
    pub path: String,
    /// Only positions with at most this many pieces (0: any the tables have).
    pub max_pieces: usize,
    /// Wins and losses the fifty-move rule spoils count as wins and losses.
    pub ignore_50_move_rule: bool,
}

impl Default for RefereeSettings {
    fn default() -> Self {
        RefereeSettings {
            margin: Duration::from_millis(100),
            hang_grace: Duration::from_secs(5),
            unclocked_timeout: Duration::from_secs(60),
            ready_timeout: Duration::from_secs(10),
            max_plies: None,
            stall_plies: None,
            draw: None,
            resign: None,
            tablebase: None,
        }
    }
}

/// A whole match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// The game's setup for the whole match (`--chess960`, `--players 3`, `--goal-lock`...): the
    /// rules the referee plays by and the notation of the records. Options that differ from the
    /// default are sent to every engine; with several numbered start positions (Chess960) each
    /// round draws one.
    pub setup: GameConfigs,
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
    /// A match of `engines` at `tc` with defaults for everything else (the default setup of
    /// the game, no ply cap, no stall rule).
    pub fn new(game: GameKind, engines: Vec<EngineSpec>, tc: TimeControl) -> Self {
        MatchConfig {
            game,
            setup: GameConfigs::default(),
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
}

/// The default ply cap and stall window of a game in a setup: for a game that measures each
/// player's progress to its goal ([`Records::progress`], Chinese checkers) 200 and 40 plies per
/// player, so that games that stop going anywhere end; none for the others (their rules end
/// every game).
pub fn default_limits(game: GameKind, setup: &GameConfigs) -> (Option<u32>, Option<u32>) {
    with_kind!(game, G => {
        let start = G::startpos(setup.get::<G>());
        match start.progress() {
            Some(_) => {
                let players = u32::try_from(start.num_players()).unwrap_or(u32::MAX);
                (
                    Some(players.saturating_mul(200)),
                    Some(players.saturating_mul(40)),
                )
            }
            None => (None, None),
        }
    })
}

/// The setup of one engine: `base` (the match's) with the engine's own setup flags applied
/// (see [`EngineSpec::setup`]).
///
/// # Errors
/// A flag that is no setup option of `G`, or a value its option does not take.
pub fn engine_setup<G: Rules>(
    base: &G::Config,
    flags: &[(String, String)],
) -> Result<G::Config, String> {
    let mut config = *base;
    for (flag, value) in flags {
        let option = G::SETUP
            .iter()
            .find(|o| o.info.flag == flag)
            .ok_or_else(|| format!("{} has no setup option `{flag}`", G::NAME))?;
        option
            .set(&mut config, Some(value))
            .map_err(|e| format!("{flag}={value}: {e}"))?;
    }
    Ok(config)
}

/// The setup options of `config` that differ from the default, with their values: what an engine
/// is told to play in this setup.
pub fn non_default_setup<G: Rules>(config: &G::Config) -> Vec<(SetupInfo, String)> {
    G::SETUP
        .iter()
        .filter(|o| !o.is_default(config))
        .map(|o| (o.info, (o.value)(config)))
        .collect()
}
