//! The protocol loop: the reader (this thread) parses every line and answers what needs no search
//! at once (`isready`, `stop`, `ponderhit`, `d`, options); one long-lived worker thread takes the
//! jobs (`go`, `go perft`, `bench`, table changes) in order over a crossbeam channel.
//!
//! Every `go` gets a number. `stop` stops every search numbered up to the last `go` read, so a
//! stale `stop` (sent while idle, or after a search ended by itself) can never end a later search,
//! and exactly one `bestmove` is printed per `go`.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, Sender};
use parking_lot::Mutex;
use sanqi_protocol::{
    parse_command_bytes, Command, Dialect, GoParams, Id, OptionDecl, PositionStart, Reply,
};

use crate::game::chinese_checkers::paths::path_to_string;
use crate::game::chinese_checkers::Cell;
use crate::game::{AnyGame, Game, GameConfig, GameKind, MoveBuffer};
use crate::io::{read_line, Line, Output};
use crate::options::{self, Effect, OptionKind, OptionSpec, Settings};
use crate::search::{SearchControl, SearchLimits};
use crate::with_game;
use crate::worker::{Job, SearchJob, Worker};

/// How long `quit` waits for the search thread to finish its job before the process ends.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// The engine's name as `id name` prints it.
pub const NAME: &str = concat!("sanqi ", env!("CARGO_PKG_VERSION"));
/// The authors as `id author` prints them.
pub const AUTHOR: &str = "the sanqi developers";

/// Numbers that tie `stop` and `ponderhit` to the searches they were meant for.
#[derive(Default)]
pub(crate) struct Tickets {
    /// Number of the last `go` sent to the worker.
    pub issued: u64,
    /// Searches numbered up to this one are to stop.
    pub stop_upto: u64,
    /// Searches numbered up to this one have had their `ponderhit`.
    pub ponderhit_upto: u64,
    /// Number of the search the worker runs now (0: none).
    pub running: u64,
    /// Number of searches that have printed their `bestmove`.
    pub finished: u64,
}

/// State shared by the reader and the worker.
pub(crate) struct Shared {
    pub tickets: Mutex<Tickets>,
    pub control: Arc<SearchControl>,
    /// UCCI: the opponent offers a draw (`go draw`, `ponderhit draw`) to the running search.
    pub draw_offered: AtomicBool,
    /// `quit` or end of input: the worker skips the jobs still queued.
    pub quitting: AtomicBool,
}

/// The reader side of the engine.
pub struct Engine {
    dialect: Dialect,
    settings: Settings,
    position: AnyGame,
    banmoves: Vec<String>,
    /// Whether a `position` command has set the position since the start or the last game change.
    position_given: bool,
    out: Output,
    shared: Arc<Shared>,
    jobs: Sender<Job>,
    worker: Option<JoinHandle<()>>,
    debug: bool,
}

impl Engine {
    /// Starts the worker thread; replies go to `out`.
    pub fn new(out: Output) -> Engine {
        let settings = Settings::default();
        let shared = Arc::new(Shared {
            tickets: Mutex::new(Tickets::default()),
            control: Arc::new(SearchControl::default()),
            draw_offered: AtomicBool::new(false),
            quitting: AtomicBool::new(false),
        });
        let (jobs, inbox): (Sender<Job>, Receiver<Job>) = unbounded();
        let worker = Worker::spawn(inbox, out.clone(), Arc::clone(&shared), settings.hash_mb);
        Engine {
            dialect: Dialect::Uci,
            position: settings.variant.startpos(&settings.config),
            settings,
            banmoves: Vec::new(),
            position_given: false,
            out,
            shared,
            jobs,
            worker: Some(worker),
            debug: false,
        }
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
                Line::Text(bytes) => self.handle_bytes(&bytes),
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

    fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Empty => {}
            Command::Uci => {
                self.dialect = Dialect::Uci;
                self.handshake();
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                if self.settings.variant != GameKind::Xiangqi {
                    self.settings.variant = GameKind::Xiangqi;
                    self.reset_position();
                }
                self.handshake();
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.reply(Reply::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register(_) => {}
            Command::UciNewGame => self.send(Job::NewGame),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(params) => self.go(&params),
            Command::Perft { depth } => self.send(Job::Perft {
                game: Box::new(self.position.clone()),
                depth,
                config: self.settings.config,
            }),
            Command::Stop => self.stop(),
            Command::PonderHit { draw } => {
                let mut t = self.shared.tickets.lock();
                t.ponderhit_upto = t.issued;
                if t.running != 0 && t.running <= t.ponderhit_upto {
                    if draw {
                        self.shared.draw_offered.store(true, Ordering::SeqCst);
                    }
                    self.shared.control.ponder.store(false, Ordering::SeqCst);
                }
            }
            Command::Quit => return false,
            Command::BanMoves(moves) => self.ban_moves(moves),
            Command::Probe { .. } => self.reply(Reply::PopHash(Default::default())),
            Command::Bench { depth } => self.send(Job::Bench {
                depth,
                dialect: self.dialect,
            }),
            Command::Display => self.out.lines(
                self.position
                    .display()
                    .lines()
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
            ),
            Command::Eval => {
                let terms = with_game!(&self.position, g => g.eval_terms());
                for (name, value) in terms {
                    self.reply(Reply::message(format!("eval {name} {value}")));
                }
            }
            Command::ListMoves { piece } => self.list_moves(piece.as_deref()),
            Command::Spsa => self.out.lines(
                crate::params::all()
                    .into_iter()
                    .map(|p| p.spsa_line())
                    .collect::<Vec<_>>(),
            ),
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
        for spec in options::OPTIONS {
            let name = if ucci { spec.ucci_name } else { spec.uci_name };
            if let Some(name) = name {
                self.reply(Reply::Option(option_decl(name, spec)));
            }
        }
        if !ucci {
            for p in crate::params::all() {
                self.reply(Reply::Option(OptionDecl {
                    name: p.name.to_string(),
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
        if let Some(param) = crate::params::find(name) {
            let parsed = value.map(str::trim).unwrap_or("").parse::<i64>();
            match parsed {
                Ok(v) => {
                    if let Err(e) = param.set(v) {
                        self.error(e);
                    }
                }
                Err(_) => self.error(format!(
                    "option {} takes an integer from {} to {}",
                    param.name, param.min, param.max
                )),
            }
            return;
        }
        let Some(spec) = options::find(name, ucci) else {
            // UCCI GUIs send their own options without reading ours: not an error there.
            if !ucci {
                self.error(format!("unknown option '{name}'"));
            }
            return;
        };
        let mut next = self.settings.clone();
        match next.apply(spec, value) {
            Err(e) => self.error(e),
            Ok(effect) => {
                self.settings = next;
                match effect {
                    Effect::None => {}
                    Effect::ResizeHash => {
                        self.send(Job::ResizeHash(self.settings.hash_mb, self.dialect))
                    }
                    Effect::ClearHash => self.send(Job::ClearHash),
                    Effect::NewGame => self.send(Job::NewGame),
                    Effect::GameChanged => self.reset_position(),
                }
            }
        }
    }

    fn reset_position(&mut self) {
        self.position = self.settings.variant.startpos(&self.settings.config);
        self.banmoves.clear();
        self.position_given = false;
    }

    fn set_position(&mut self, start: &PositionStart, moves: &[String]) {
        let kind = self.settings.variant;
        let config = self.settings.config;
        let built = match start {
            PositionStart::StartPos => Ok(kind.startpos(&config)),
            PositionStart::Fen(fen) => kind.from_fen(fen, &config),
        };
        let mut game = match built {
            Ok(g) => g,
            Err(e) => {
                self.error(format!("bad position: {e}; the previous position is kept"));
                return;
            }
        };
        for (i, mv) in moves.iter().enumerate() {
            if let Err(e) = game.play_text_move(mv, &config) {
                self.error(format!(
                    "bad move {} '{mv}' in position: {e}; the previous position is kept",
                    i + 1
                ));
                return;
            }
        }
        self.position = game;
        self.banmoves.clear();
        self.position_given = true;
    }

    fn ban_moves(&mut self, moves: Vec<String>) {
        let config = self.settings.config;
        for mv in &moves {
            let ok = with_game!(&self.position, g => g.parse_move(mv, &config).map(|_| ()));
            if let Err(e) = ok {
                self.error(format!("banmoves: '{mv}': {e}"));
                return;
            }
        }
        self.banmoves = moves;
    }

    fn stop(&mut self) {
        let mut t = self.shared.tickets.lock();
        let idle = t.finished == t.issued;
        t.stop_upto = t.issued;
        if t.running != 0 && t.running <= t.stop_upto {
            self.shared.control.stop.store(true, Ordering::SeqCst);
        }
        drop(t);
        if idle && self.dialect == Dialect::Ucci {
            self.reply(Reply::NoBestMove);
        }
    }

    fn go(&mut self, params: &GoParams) {
        let config = self.settings.config;
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
                let ok = with_game!(&self.position, g => g.parse_move(mv, &config).map(|_| ()));
                if let Err(e) = ok {
                    self.error(format!("searchmoves: '{mv}': {e}"));
                    return;
                }
            }
            allowed = Some(params.searchmoves.clone());
        }
        let limits = self.limits(params);
        let ticket = {
            let mut t = self.shared.tickets.lock();
            t.issued += 1;
            t.issued
        };
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
            config,
            dialect: self.dialect,
        })));
    }

    /// Turns `go` parameters into search limits for the side to move, in milliseconds.
    fn limits(&self, p: &GoParams) -> SearchLimits {
        let side = with_game!(&self.position, g => g.side_to_move());
        let players = with_game!(&self.position, g => g.num_players());
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
        }
    }

    fn list_moves(&self, piece: Option<&str>) {
        let config = self.settings.config;
        let lines = match &self.position {
            AnyGame::ChineseCheckers(g) => {
                let cell = match piece.map(str::parse::<Cell>).transpose() {
                    Ok(c) => c,
                    Err(e) => {
                        self.error(format!("moves: {e}"));
                        return;
                    }
                };
                g.moves_with_paths(cell)
                    .into_iter()
                    .map(|mp| {
                        let mv = g.format_move(mp.mv, &config);
                        let path = path_to_string(&mp.path);
                        format!("info string move {mv} path {path}")
                    })
                    .collect::<Vec<_>>()
            }
            other => with_game!(other, g => legal_move_texts(g, &config))
                .into_iter()
                .filter(|t| piece.is_none_or(|p| t.starts_with(p)))
                .map(|t| format!("info string move {t}"))
                .collect::<Vec<_>>(),
        };
        self.out.lines(lines);
        self.reply(Reply::message("end of moves"));
    }

    fn shutdown(&mut self) {
        self.shared.quitting.store(true, Ordering::SeqCst);
        {
            let mut t = self.shared.tickets.lock();
            t.stop_upto = t.issued;
            self.shared.control.stop.store(true, Ordering::SeqCst);
        }
        let _ = self.jobs.send(Job::Quit);
        if let Some(w) = self.worker.take() {
            // A running search stops within a millisecond or two; a long `go perft` or `bench`
            // cannot be interrupted, so the process does not wait for it for long.
            let deadline = Instant::now() + QUIT_GRACE;
            while !w.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            if w.is_finished() {
                let _ = w.join();
            }
        }
        if self.dialect == Dialect::Ucci {
            self.reply(Reply::Bye);
        }
    }
}

/// Every legal move of `game` in protocol form.
pub fn legal_move_texts<G: Game>(game: &G, config: &GameConfig) -> Vec<String> {
    let mut list = G::MoveList::default();
    game.generate_moves(&mut list);
    list.moves()
        .iter()
        .map(|&m| game.format_move(m, config))
        .collect()
}

fn option_decl(name: &str, spec: &OptionSpec) -> OptionDecl {
    use sanqi_protocol::OptionKind as K;
    let kind = match spec.kind {
        OptionKind::Check { default } => K::Check { default },
        OptionKind::Spin { default, min, max } => K::Spin { default, min, max },
        OptionKind::Combo { default, vars } => K::Combo {
            default: default.to_string(),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
        OptionKind::Button => K::Button,
    };
    OptionDecl {
        name: name.to_string(),
        kind,
    }
}

/// Runs the protocol loop on standard input and output.
pub fn run_stdio() {
    let engine = Engine::new(Output::stdout());
    let stdin = std::io::stdin();
    engine.run(stdin.lock());
}

/// The configuration a one-shot tool uses for a game.
pub fn default_config() -> GameConfig {
    GameConfig::default()
}
