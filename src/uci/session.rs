//! The reader side of the protocol loop: it parses every line and answers what needs no search at
//! once (`isready`, `stop`, `ponderhit`, `d`, options); the search thread ([`super::worker`])
//! takes the jobs (`go`, `go perft`, `bench`, table changes) in order over a crossbeam channel.
//! The ticket rules ([`super::tickets`]) tie `stop` and `ponderhit` to the right search.

use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{unbounded, Receiver, Sender};
use sanqi_protocol::{
    parse_command_bytes, Command, Dialect, GoParams, Id, OptionDecl, PositionStart, Reply,
};

use super::io::{read_line, Line, Output};
use super::options::{self, Effect, Settings};
use super::tickets::Tickets;
use super::worker::{Job, SearchJob, SearchThread};
use super::{AUTHOR, NAME};
use crate::game::registry::UCCI_GAME;
use crate::game::{with_game, AnyGame, GameKind, SetupInfo};
use crate::search::catalog::{all_params, find_param, spsa_params};
use crate::search::SearchLimits;
use crate::tune::OptionType;

/// One protocol session: the settings, the position, and the search thread it feeds.
pub struct Session {
    dialect: Dialect,
    settings: Settings,
    position: AnyGame,
    banmoves: Vec<String>,
    /// The opponents seen playing their policy move in the moves of the last `position`
    /// command ([`crate::search::multiplayer::policy_players`]; `None`: unknown).
    policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
    /// Whether a `position` command has set the position since the start or the last game change.
    position_given: bool,
    out: Output,
    tickets: Arc<Tickets>,
    jobs: Sender<Job>,
    search_thread: Option<JoinHandle<()>>,
    debug: bool,
    /// A `go infinite` or `go ponder` was sent (see [`Session::run_commands`]).
    unbounded_go: bool,
    /// The opening book of `Book File`, read at `setoption`.
    book: Option<Arc<crate::game::book::Book>>,
}

impl Session {
    /// Starts the search thread; replies go to `out`.
    pub fn new(out: Output) -> Session {
        Session::with_game(out, crate::game::registry::DEFAULT_GAME)
    }

    /// Like [`Session::new`], with `game` as the game of `startpos` (`sanqi --game xiangqi`).
    pub fn with_game(out: Output, game: GameKind) -> Session {
        let settings = Settings {
            variant: game,
            ..Settings::default()
        };
        let tickets = Arc::new(Tickets::default());
        let (jobs, inbox): (Sender<Job>, Receiver<Job>) = unbounded();
        let search_thread =
            SearchThread::spawn(inbox, out.clone(), Arc::clone(&tickets), settings.hash_mb);
        Session {
            dialect: Dialect::Uci,
            position: settings.variant.startpos(&settings.configs),
            settings,
            banmoves: Vec::new(),
            policy_players: None,
            position_given: false,
            out,
            tickets,
            jobs,
            search_thread: Some(search_thread),
            debug: false,
            unbounded_go: false,
            book: None,
        }
    }

    /// Prints one error line (a bad command-line flag, before any command).
    pub fn report_error(&self, text: impl std::fmt::Display) {
        self.error(text);
    }

    /// Runs `commands` as input lines, in order, then ends. Without a `quit` among them, each
    /// search runs to its limits before the engine ends (as Stockfish with command-line
    /// commands), except that a `go infinite` or `go ponder`, which nothing could stop any
    /// more, is stopped as at end of input.
    pub fn run_commands(mut self, commands: &[String]) {
        for line in commands {
            self.out.log_input(line.as_bytes());
            if !self.handle_bytes(line.as_bytes()) {
                self.shutdown();
                return;
            }
        }
        if !self.unbounded_go {
            let _ = self.jobs.send(Job::Quit);
            if let Some(w) = self.search_thread.take() {
                let _ = w.join();
            }
        }
        self.shutdown();
    }

    /// Runs the loop until `quit` or end of input.
    pub fn run(mut self, mut input: impl BufRead) {
        loop {
            let keep_going = match read_line(&mut input) {
                Line::Eof => false,
                Line::TooLong(n) => {
                    self.error(format!("line of {n} bytes is too long; ignored"));
                    true
                }
                Line::Text(bytes) => {
                    self.out.log_input(&bytes);
                    self.handle_bytes(&bytes)
                }
            };
            if !keep_going {
                break;
            }
        }
        self.shutdown();
    }

    /// Handles one input line; false when the session is over.
    pub fn handle_bytes(&mut self, bytes: &[u8]) -> bool {
        match parse_command_bytes(bytes, self.dialect) {
            Ok(cmd) => self.handle(cmd),
            Err(e) => {
                self.error(e);
                true
            }
        }
    }

    fn error(&self, text: impl std::fmt::Display) {
        self.out.error(text, self.dialect);
    }

    fn reply(&self, reply: Reply) {
        self.out.reply(&reply, self.dialect);
    }

    fn send(&self, job: Job) {
        // The worker lives as long as the engine; a send can only fail after it panicked, and
        // then there is nothing left to do with the job.
        if self.jobs.send(job).is_err() {
            self.error("the search thread has stopped");
        }
    }

    /// Sends a job that works on the table (see [`Tickets::wait_for_table_jobs`]).
    fn send_table_job(&self, job: Job) {
        self.tickets.table_job_sent();
        self.send(job);
    }

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Empty => {}
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.handshake();
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                if self.settings.variant != UCCI_GAME {
                    self.settings.variant = UCCI_GAME;
                    self.reset_position();
                }
                self.handshake();
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.tickets.wait_for_table_jobs();
                self.reply(Reply::ReadyOk)
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register(_) => {}
            Command::UciNewGame => self.send_table_job(Job::NewGame),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(&params),
            Command::Perft { depth } => self.send(Job::Perft {
                game: Box::new(self.position.clone()),
                depth,
                configs: self.settings.configs,
            }),
            Command::Stop => {
                let idle = self.tickets.stop();
                if idle && self.dialect == Dialect::Ucci {
                    self.reply(Reply::NoBestMove);
                }
            }
            Command::PonderHit { draw } => self.tickets.ponderhit(draw),
            Command::Quit => return false,
            Command::BanMoves(moves) => self.ban_moves(moves),
            Command::Probe { .. } => self.reply(Reply::PopHash(Default::default())),
            Command::Bench { depth } => self.send(Job::Bench {
                depth,
                dialect: self.dialect,
            }),
            Command::Genfens {
                count,
                seed,
                book,
                extra,
            } => self.genfens(count, seed, book.as_deref(), &extra),
            Command::Display => {
                // The drawing, then the verdict when the game is over (for harnesses).
                let mut lines: Vec<String> = self
                    .position
                    .display()
                    .lines()
                    .map(str::to_string)
                    .collect();
                lines.extend(self.position.table_line());
                lines.extend(self.position.outcome_line());
                self.out.lines(lines);
            }
            Command::Eval => {
                for (name, value) in self.position.eval_lines() {
                    self.reply(Reply::message(format!("eval {name} {value}")));
                }
                if let Some(line) = self.position.table_line() {
                    self.reply(Reply::message(format!("eval {line}")));
                }
            }
            Command::ListMoves { piece } => self.list_moves(piece.as_deref()),
            Command::Spsa { game } => {
                let params = match game.as_deref().map(GameKind::from_name) {
                    None => all_params(),
                    Some(Some(kind)) => spsa_params(kind),
                    Some(None) => {
                        let known = GameKind::NAMES.join(", ");
                        self.error(format!("spsa: unknown game (known: {known})"));
                        return true;
                    }
                };
                // On/off switches are options too, but SPSA cannot tune them.
                self.out.lines(
                    params
                        .into_iter()
                        .filter(|p| p.is_tunable())
                        .map(|p| p.spsa_line())
                        .collect::<Vec<_>>(),
                );
            }
        }
        true
    }

    fn handshake(&self) {
        self.reply(Reply::Id(Id::Name(NAME.to_string())));
        self.reply(Reply::Id(Id::Author(AUTHOR.to_string())));
        if self.dialect == Dialect::Ucci {
            self.reply(Reply::Id(Id::Copyright(
                "MIT licence, the sanqi developers".to_string(),
            )));
        }
        let ucci = self.dialect == Dialect::Ucci;
        let named = |uci: Option<&'static str>, ucci_name: Option<&'static str>| {
            if ucci {
                ucci_name
            } else {
                uci
            }
        };
        for spec in options::OPTIONS {
            if let Some(name) = named(spec.uci_name, spec.ucci_name) {
                let kind = match spec.kind {
                    // The game of `startpos` now (`sanqi --game xiangqi` makes it xiangqi).
                    OptionType::Combo { vars, .. } if spec.id == options::OptionId::Variant => {
                        OptionType::Combo {
                            default: self.settings.variant.name(),
                            vars,
                        }
                    }
                    kind => kind,
                };
                self.reply(Reply::Option(option_decl(name, kind)));
            }
        }
        for &kind in GameKind::ALL {
            for SetupInfo {
                uci_name,
                ucci_name,
                kind,
                ..
            } in kind.setup()
            {
                if let Some(name) = named(uci_name, ucci_name) {
                    self.reply(Reply::Option(option_decl(name, kind)));
                }
            }
        }
        if !ucci {
            for p in all_params() {
                self.reply(Reply::Option(OptionDecl {
                    name: p.option_name(),
                    kind: sanqi_protocol::OptionKind::Spin {
                        default: i64::from(p.default),
                        min: i64::from(p.min),
                        max: i64::from(p.max),
                    },
                }));
            }
        }
        self.reply(if ucci { Reply::UcciOk } else { Reply::UciOk });
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let ucci = self.dialect == Dialect::Ucci;
        if let Some(param) = find_param(name) {
            let parsed = value.map(str::trim).unwrap_or("").parse::<i64>();
            match parsed {
                Ok(v) => {
                    if let Err(e) = param.set(v) {
                        self.error(e);
                    }
                }
                Err(_) => self.error(format!(
                    "option {} takes an integer from {} to {}",
                    param.option_name(),
                    param.min,
                    param.max
                )),
            }
            return;
        }
        let mut next = self.settings.clone();
        let applied = match options::find(name, ucci) {
            Some(spec) => next.apply(spec, value),
            None => match next.apply_setup(name, ucci, value) {
                Some(result) => result,
                None => {
                    // UCCI GUIs send their own options without reading ours: not an error there.
                    if !ucci {
                        self.error(format!("unknown option '{name}'"));
                    }
                    return;
                }
            },
        };
        match applied {
            Err(e) => self.error(e),
            Ok(effect) => {
                if effect == Effect::LoadNetwork {
                    match crate::game::registry::load_network(&next.eval_file) {
                        Ok(what) => self.reply(Reply::message(format!("loaded {what}"))),
                        Err(e) => return self.error(e),
                    }
                }
                if effect == Effect::LoadBook {
                    if next.book_file.is_empty() {
                        self.book = None;
                    } else {
                        let path = std::path::Path::new(&next.book_file);
                        match crate::game::book::Book::open(path) {
                            Ok(book) => {
                                let mut text = format!(
                                    "loaded book {} ({} entries)",
                                    next.book_file,
                                    book.len()
                                );
                                if !book.is_sorted() {
                                    text.push_str("; warning: its entries are not sorted by key, so lookups miss some");
                                }
                                self.reply(Reply::message(text));
                                self.book = Some(Arc::new(book));
                            }
                            Err(e) => return self.error(e),
                        }
                    }
                }
                if effect == Effect::OpenLog {
                    if next.debug_log.is_empty() {
                        self.out.set_log(None);
                    } else {
                        match super::io::open_log(&next.debug_log) {
                            Ok(file) => self.out.set_log(Some(file)),
                            Err(e) => {
                                // Logging stays off, whatever file was open before.
                                self.out.set_log(None);
                                self.settings.debug_log.clear();
                                return self.error(e);
                            }
                        }
                    }
                }
                self.settings = next;
                crate::nnue::set_enabled(self.settings.use_nnue);
                match effect {
                    Effect::LoadNetwork | Effect::OpenLog | Effect::LoadBook => {}
                    Effect::LoadTables => {
                        let path = &self.settings.syzygy_path;
                        let path = if path == "<empty>" { "" } else { path.as_str() };
                        let (summary, problems) = crate::game::chess::tables::set_path(path);
                        for p in problems {
                            self.reply(Reply::message(p));
                        }
                        self.reply(Reply::message(summary));
                    }
                    Effect::TableSettings => crate::game::chess::tables::configure(
                        self.settings.syzygy_probe_depth,
                        self.settings.syzygy_50_move_rule,
                        self.settings.syzygy_probe_limit,
                    ),
                    Effect::None => {}
                    Effect::ResizeHash => {
                        self.send_table_job(Job::ResizeHash(self.settings.hash_mb, self.dialect))
                    }
                    Effect::SetThreads => {
                        self.send_table_job(Job::SetThreads(self.settings.threads, self.dialect))
                    }
                    Effect::ClearHash => self.send_table_job(Job::ClearHash),
                    Effect::NewGame => self.send_table_job(Job::NewGame),
                    Effect::GameChanged => self.reset_position(),
                }
            }
        }
    }

    fn reset_position(&mut self) {
        self.position = self.settings.variant.startpos(&self.settings.configs);
        self.banmoves.clear();
        self.policy_players = None;
        self.position_given = false;
    }

    fn set_position(&mut self, start: &PositionStart, moves: &[String]) {
        let mut kind = self.settings.variant;
        let configs = &self.settings.configs;
        let built = match start {
            PositionStart::StartPos => Ok(kind.startpos(configs)),
            PositionStart::Fen(fen) => match kind.from_fen(fen, configs) {
                Ok(g) => Ok(g),
                // Plain UCI as GUIs drive Pikafish: a position of another game's board shape
                // (10 ranks: xiangqi, 8: chess) switches to that game. UCCI is xiangqi only.
                Err(e) if self.dialect == Dialect::Uci => match GameKind::from_fen_shape(fen) {
                    Some(other) if other != kind => {
                        kind = other;
                        other.from_fen(fen, configs).map_err(|e| e.to_string())
                    }
                    Some(_) => Err(e.to_string()),
                    None => Err(format!("{e} (no game has that board: {})", fen_shapes())),
                },
                Err(e) => Err(e.to_string()),
            },
        };
        let mut game = match built {
            Ok(g) => g,
            Err(e) => {
                self.error(format!("bad position: {e}; the previous position is kept"));
                return;
            }
        };
        let policy_players = with_game!(&game, configs, g, c => {
            crate::search::multiplayer::policy_players(g, moves, c)
        });
        for (i, mv) in moves.iter().enumerate() {
            if let Err(e) = game.play_text_move(mv, configs) {
                self.error(format!(
                    "bad move {} '{mv}' in position: {e}; the previous position is kept",
                    i + 1
                ));
                return;
            }
        }
        if kind != self.settings.variant {
            // As `setoption name UCI_Variant`: every game keeps its own options; the table and
            // the histories stay (`ucinewgame` clears them).
            self.settings.variant = kind;
            self.reply(Reply::message(format!(
                "game {}: the position has {} ranks",
                kind.name(),
                kind.fen_ranks()
            )));
        }
        self.position = game;
        self.banmoves.clear();
        self.policy_players = policy_players;
        self.position_given = true;
    }

    fn ban_moves(&mut self, moves: Vec<String>) {
        for mv in &moves {
            if let Err(e) = self.position.check_move(mv, &self.settings.configs) {
                self.error(format!("banmoves: '{mv}': {e}"));
                return;
            }
        }
        self.banmoves = moves;
    }

    fn go(&mut self, params: &GoParams) {
        if !self.position_given {
            self.error(format!(
                "go before position: searching the {} start position",
                self.settings.variant.name()
            ));
            self.position_given = true;
        }
        // Root moves: `searchmoves` restricts, UCCI `banmoves` excludes; both checked as legal.
        let mut allowed: Option<Vec<String>> = None;
        if !params.searchmoves.is_empty() {
            for mv in &params.searchmoves {
                if let Err(e) = self.position.check_root_move(mv, &self.settings.configs) {
                    self.error(format!("searchmoves: '{mv}': {e}"));
                    return;
                }
            }
            allowed = Some(params.searchmoves.clone());
        }
        let limits = self.limits(params);
        self.unbounded_go |= params.infinite || params.ponder;
        let ticket = self.tickets.issue();
        self.send(Job::Search(Box::new(SearchJob {
            ticket,
            game: self.position.clone(),
            limits,
            ponder: params.ponder,
            draw_offered: params.draw,
            searchmoves: allowed,
            banmoves: self.banmoves.clone(),
            threads: self.settings.threads,
            multipv: self.settings.multipv,
            skill: self.settings.skill(),
            policy_players: self.policy_players,
            configs: self.settings.configs,
            dialect: self.dialect,
            show_wdl: self.settings.show_wdl,
            // Not for `go infinite` or `go ponder`, which must search until `stop`.
            book: self
                .book
                .clone()
                .filter(|_| self.settings.own_book && !params.infinite && !params.ponder)
                .map(|b| (b, self.settings.book_depth)),
        })));
    }

    /// Turns `go` parameters into search limits for the side to move, in milliseconds.
    fn limits(&self, p: &GoParams) -> SearchLimits {
        let (side, players) = self.position.turn();
        // UCCI times are seconds unless `usemillisec` was set.
        let scale = |t: i64| -> i64 {
            if self.dialect == Dialect::Ucci && !self.settings.use_millisec {
                t.saturating_mul(1000)
            } else {
                t
            }
        };
        let (mut time, mut inc) = match (side, players) {
            (0, 2) => (p.wtime, p.winc),
            (1, 2) => (p.btime, p.binc),
            _ => (None, None),
        };
        if let Some(t) = p.time {
            time = Some(scale(t));
            inc = p.increment.map(scale);
        }
        SearchLimits {
            depth: p.depth,
            nodes: p.nodes,
            movetime_ms: p.movetime.map(|t| t.max(0) as u64),
            time_left_ms: time,
            increment_ms: inc.unwrap_or(0).max(0),
            movestogo: p.movestogo,
            mate: p.mate,
            infinite: p.infinite,
            move_overhead_ms: self.settings.move_overhead_ms,
            received: Some(Instant::now()),
        }
    }

    /// `genfens`: checks the words and reads the book here (bounded), then the search thread
    /// makes the openings. `chess960`, `frc`, `960` or `dfrc` among the extra words, or
    /// `UCI_Chess960`, give Chess960 starts; `margin=<cp>` sets the balance margin; any other
    /// extra word is an error.
    fn genfens(&mut self, count: u32, seed: u64, book: Option<&str>, extra: &[String]) {
        let mut configs = self.settings.configs;
        let mut margin = crate::datagen::genfens::MARGIN;
        for word in extra {
            let word = word.to_ascii_lowercase();
            if let Some(value) = word.strip_prefix("margin=") {
                match value.parse::<i32>() {
                    Ok(cp) if (0..=MAX_GENFENS_MARGIN).contains(&cp) => margin = cp,
                    _ => {
                        return self.error(format!(
                            "genfens: margin must be 0 to {MAX_GENFENS_MARGIN} centipawns, not '{value}'"
                        ))
                    }
                }
                continue;
            }
            match word.as_str() {
                "chess960" | "frc" | "960" | "dfrc" => configs.chess.chess960 = true,
                other => {
                    return self.error(format!(
                        "genfens: unknown word '{other}' (known: chess960, frc, 960, dfrc, margin=<cp>)"
                    ))
                }
            }
        }
        if count == 0 || count > MAX_GENFENS {
            return self.error(format!("genfens: the count must be 1 to {MAX_GENFENS}"));
        }
        let lines = match book {
            None => None,
            Some(path) => match read_book(path) {
                Ok(lines) => Some(lines),
                Err(e) => return self.error(format!("genfens: {e}")),
            },
        };
        let game = if configs != self.settings.configs {
            self.settings.variant.startpos(&configs)
        } else {
            self.position.clone()
        };
        self.send(Job::Genfens {
            game: Box::new(game),
            count,
            seed,
            book: lines,
            margin,
            configs,
            dialect: self.dialect,
        });
    }

    fn list_moves(&self, piece: Option<&str>) {
        match self.position.list_moves(piece, &self.settings.configs) {
            Ok(moves) => {
                self.out
                    .lines(moves.into_iter().map(|t| format!("info string move {t}")));
                self.reply(Reply::message("end of moves"));
            }
            Err(e) => self.error(format!("moves: {e}")),
        }
    }

    fn shutdown(&mut self) {
        self.tickets.quit();
        // (After `run_commands` waited, the thread is gone and this send does nothing.)
        let _ = self.jobs.send(Job::Quit);
        if let Some(w) = self.search_thread.take() {
            // Commands keep their order: the search thread ends after the jobs sent before
            // `quit`. A running search stops within a millisecond or two and prints its
            // `bestmove`; a `go perft` or `bench` completes first, as in Stockfish.
            let _ = w.join();
        }
        if self.dialect == Dialect::Ucci {
            self.reply(Reply::Bye);
        }
    }
}

/// Most openings one `genfens` makes.
const MAX_GENFENS: u32 = 1_000_000;
/// Largest balance margin (centipawns) `genfens` takes; `margin=100000` keeps every opening.
const MAX_GENFENS_MARGIN: i32 = 100_000;
/// Largest opening book `genfens` reads.
const MAX_BOOK_BYTES: u64 = 256 << 20;

/// The non-empty, non-comment lines of an EPD/FEN book: a regular file of at most
/// [`MAX_BOOK_BYTES`] (a FIFO or a device would block or never end).
fn read_book(path: &str) -> Result<Vec<String>, String> {
    let text = crate::files::read_bounded_text(std::path::Path::new(path), MAX_BOOK_BYTES, "book")?;
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if lines.is_empty() {
        return Err(format!("book '{path}' has no positions"));
    }
    Ok(lines)
}

/// The board shapes of the registered games, for the error of a position of none of them.
fn fen_shapes() -> String {
    GameKind::ALL
        .iter()
        .filter(|k| k.fen_ranks() > 0)
        .map(|k| format!("{} has {} ranks", k.name(), k.fen_ranks()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn option_decl(name: &str, kind: OptionType) -> OptionDecl {
    use sanqi_protocol::OptionKind as K;
    let kind = match kind {
        OptionType::Check { default } => K::Check { default },
        OptionType::Spin { default, min, max } => K::Spin { default, min, max },
        OptionType::Combo { default, vars } => K::Combo {
            default: default.to_string(),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
        OptionType::Button => K::Button,
        OptionType::Text { default } => K::String {
            default: default.to_string(),
        },
    };
    OptionDecl {
        name: name.to_string(),
        kind,
    }
}
