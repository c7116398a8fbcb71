//! One engine process: spawned with piped stdin and stdout, a reader thread that forwards each
//! output line (with the time it arrived) into a crossbeam channel, a deadline on every wait, and a
//! kill when the engine hangs or the driver is dropped. Engine output is never trusted: unparsable
//! lines are skipped, over-long lines are cut, invalid UTF-8 is replaced.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use sanqi_protocol::{parse_reply, Command, GoParams, OptionDecl, PositionStart, Reply, Score};

use super::config::EngineSpec;
use super::proto::Proto;
use crate::game::SetupInfo;

/// The longest engine output line kept (longer lines are cut).
pub const MAX_LINE: usize = 64 * 1024;

/// Lines buffered between the reader thread and the referee.
const CHANNEL_LINES: usize = 4096;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// The program could not be started.
    Spawn(String),
    /// The engine closed its output or its input (it exited or crashed).
    Crashed,
    /// No expected reply before the deadline (the engine was killed).
    Timeout(&'static str),
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Spawn(e) => write!(f, "could not start: {e}"),
            EngineFailure::Crashed => f.write_str("crashed (output closed)"),
            EngineFailure::Timeout(what) => write!(f, "no `{what}` in time (hang, killed)"),
        }
    }
}

/// One line of engine output, or the end of it.
enum Event {
    Line(String, Instant),
    Eof,
}

/// What the engine answered to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoReply {
    /// The move token exactly as sent (`None` for `bestmove (none)` / `nobestmove`).
    pub mv: Option<String>,
    /// UCCI `resign` flag.
    pub resign: bool,
    /// Time from writing `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last score seen in `info` (mate scores as ±(30000 - plies)).
    pub score: Option<i32>,
    /// The last depth seen.
    pub depth: Option<u32>,
}

/// A running engine process.
pub struct EngineProcess {
    /// How it was started.
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    /// The options it declared during the handshake.
    pub declared: Vec<OptionDecl>,
    /// The name it gave in `id name`.
    pub id_name: Option<String>,
    dead: bool,
    /// UCCI: the engine declared `usemillisec` and was told to use it.
    pub ucci_millis: bool,
    /// The last lines read (for error reports).
    pub tail: Vec<String>,
}

/// Mate scores are mapped to ±(MATE - plies) for adjudication.
pub const MATE: i32 = 30_000;

fn score_value(score: Score, proto: Proto) -> i32 {
    match score {
        Score::Cp(v) if proto == Proto::Ucci && v.abs() >= 9_000 => {
            // ElephantEye style: ±(10000 - plies) means mate.
            v.signum() * (MATE - (10_000 - v.abs()).max(0))
        }
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE - 2 * n,
    }
}

fn reader(stdout: impl Read, tx: crossbeam_channel::Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut too_long = false;
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
            too_long = true;
            // Skip the rest of the over-long line.
            let mut sink = Vec::new();
            loop {
                sink.clear();
                match (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut sink)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) if sink.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
        }
        let now = Instant::now();
        let mut line = String::from_utf8_lossy(&buf).into_owned();
        while line.ends_with('\n') || line.ends_with('\r') {
            line.pop();
        }
        if too_long {
            line.truncate(line.floor_char_boundary_compat(MAX_LINE));
        }
        if tx.send(Event::Line(line, now)).is_err() {
            return;
        }
    }
    let _ = tx.send(Event::Eof);
}

trait FloorBoundary {
    fn floor_char_boundary_compat(&self, at: usize) -> usize;
}

impl FloorBoundary for String {
    fn floor_char_boundary_compat(&self, at: usize) -> usize {
        let mut i = at.min(self.len());
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

impl EngineProcess {
    /// Starts the program and its reader thread (no handshake yet).
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, EngineFailure> {
        let mut cmd = std::process::Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Its own process group, so that a hung engine started through a wrapper script is killed
        // with everything it started.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineFailure::Spawn(format!("{}: {e}", spec.cmd)))?;
        if !super::children::register(child.id()) {
            // The runner is ending (a signal): no new engine.
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineFailure::Spawn("the match is ending".into()));
        }
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineFailure::Spawn("no stdout pipe".into()));
        };
        // Bounded: an engine that floods its output is slowed down by the pipe instead of filling
        // memory.
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_LINES);
        let spawned = thread::Builder::new()
            .name(format!("engine-{}", spec.name))
            .spawn(move || reader(stdout, tx));
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineFailure::Spawn(format!("reader thread: {e}")));
        }
        Ok(EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            rx,
            declared: Vec::new(),
            id_name: None,
            dead: false,
            ucci_millis: false,
            tail: Vec::new(),
        })
    }

    /// Starts the engine and runs the handshake (`uci`/`ucci`, options, `isready`): `variant`
    /// is the game's `UCI_Variant` value, `setup` the setup options that differ from the default
    /// (sent before the engine's own options, unless those name them).
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        setup: &[(SetupInfo, String)],
        timeout: Duration,
    ) -> Result<EngineProcess, EngineFailure> {
        let mut e = EngineProcess::spawn(spec)?;
        e.handshake(variant, setup, timeout)?;
        Ok(e)
    }

    /// Whether the process is known to be gone (crashed or killed).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Writes one command in the engine's dialect.
    pub fn send(&mut self, command: &Command) -> Result<(), EngineFailure> {
        let line = command.display(self.spec.proto.dialect()).to_string();
        self.send_line(&line)
    }

    /// Writes one line as it is.
    fn send_line(&mut self, line: &str) -> Result<(), EngineFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineFailure::Crashed);
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if ok.is_err() {
            self.dead = true;
            return Err(EngineFailure::Crashed);
        }
        Ok(())
    }

    /// The next line before `deadline`.
    fn next_line(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<(String, Instant), EngineFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(line, at)) => {
                if self.tail.len() >= 8 {
                    self.tail.remove(0);
                }
                self.tail.push(line.clone());
                Ok((line, at))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(EngineFailure::Crashed)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(EngineFailure::Timeout(what))
            }
        }
    }

    /// Reads lines until one parses to a reply accepted by `want`.
    fn wait_for(
        &mut self,
        deadline: Instant,
        what: &'static str,
        mut want: impl FnMut(&Reply) -> bool,
    ) -> Result<(Reply, Instant), EngineFailure> {
        let dialect = self.spec.proto.dialect();
        loop {
            let (line, at) = self.next_line(deadline, what)?;
            let reply = match parse_reply(&line, dialect) {
                Ok(reply) => reply,
                // A `bestmove` line the parser refuses (bare `bestmove`, `bestmove ponder` with
                // nothing after it) still ends the search: it names no move to play, scored as
                // a missing move, not waited on until the clock runs out.
                Err(_) if line.split_whitespace().next() == Some("bestmove") => Reply::NoBestMove,
                Err(_) => continue,
            };
            if want(&reply) {
                return Ok((reply, at));
            }
        }
    }

    fn handshake(
        &mut self,
        variant: &str,
        setup: &[(SetupInfo, String)],
        timeout: Duration,
    ) -> Result<(), EngineFailure> {
        let deadline = Instant::now() + timeout;
        let proto = self.spec.proto;
        self.send(if proto == Proto::Ucci {
            &Command::Ucci
        } else {
            &Command::Uci
        })?;
        let mut declared = Vec::new();
        let mut id_name = None;
        self.wait_for(deadline, "uciok", |r| match r {
            Reply::Option(d) => {
                declared.push(d.clone());
                false
            }
            Reply::Id(sanqi_protocol::Id::Name(n)) => {
                id_name = Some(n.clone());
                false
            }
            Reply::UciOk | Reply::UcciOk => true,
            _ => false,
        })?;
        self.declared = declared;
        self.id_name = id_name;
        for command in self.start_options(variant, setup) {
            self.send(&command)?;
        }
        self.sync(deadline)
    }

    /// The `setoption` commands after the handshake: `usemillisec` (UCCI, when offered),
    /// `UCI_Variant` (UCI, when declared; always for Fairy-Stockfish), the setup, the engine's
    /// own options. The engine's own options win over the first three.
    fn start_options(&mut self, variant: &str, setup: &[(SetupInfo, String)]) -> Vec<Command> {
        let proto = self.spec.proto;
        let declares = |name: &str| {
            self.declared
                .iter()
                .any(|d| d.name.eq_ignore_ascii_case(name))
        };
        let explicit = |name: &str| {
            self.spec
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(name))
        };
        let set = |name: &str, value: &str| Command::SetOption {
            name: name.to_owned(),
            value: Some(value.to_owned()),
        };
        let mut commands = Vec::new();
        match proto {
            Proto::Ucci => {
                if declares("usemillisec") {
                    self.ucci_millis = true;
                    commands.push(set("usemillisec", "true"));
                }
            }
            Proto::Uci | Proto::UciFsf => {
                if !explicit("UCI_Variant") && (proto == Proto::UciFsf || declares("UCI_Variant")) {
                    commands.push(set("UCI_Variant", variant));
                }
            }
        }
        for (info, value) in setup {
            let name = match proto {
                Proto::Ucci => info.ucci_name,
                Proto::Uci | Proto::UciFsf => info.uci_name,
            };
            if let Some(name) = name.filter(|n| !explicit(n)) {
                commands.push(set(name, value));
            }
        }
        for (k, v) in &self.spec.options {
            commands.push(set(k, v));
        }
        commands
    }

    /// Sends `isready` and waits for `readyok`.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), EngineFailure> {
        self.send(&Command::IsReady)?;
        self.wait_for(deadline, "readyok", |r| *r == Reply::ReadyOk)?;
        Ok(())
    }

    /// Prepares a new game (`ucinewgame` in UCI) and waits until the engine is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineFailure> {
        if self.spec.proto != Proto::Ucci {
            self.send(&Command::UciNewGame)?;
        }
        self.sync(Instant::now() + timeout)
    }

    /// Sends `position fen <fen> moves <moves>` and `go` with `go_params`, then waits for
    /// `bestmove` until `hard_limit` after `go`.
    ///
    /// `moves` are in the engine's own notation already.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        go_params: GoParams,
        hard_limit: Duration,
    ) -> Result<GoReply, EngineFailure> {
        let position = Command::Position {
            start: PositionStart::Fen(fen.to_owned()),
            moves: moves.to_vec(),
        };
        // Lines left over from an earlier search (a second `bestmove`, late `info`) are dropped.
        while let Ok(event) = self.rx.try_recv() {
            if let Event::Eof = event {
                self.dead = true;
                return Err(EngineFailure::Crashed);
            }
        }
        self.send(&position)?;
        let start = Instant::now();
        self.send(&Command::Go(go_params))?;
        let deadline = start + hard_limit;
        let proto = self.spec.proto;
        let mut score = None;
        let mut depth = None;
        let (reply, at) = self.wait_for(deadline, "bestmove", |r| match r {
            Reply::Info(info) => {
                if let Some(s) = info.score {
                    if info.multipv.unwrap_or(1) == 1 && info.bound.is_none() {
                        score = Some(score_value(s, proto));
                    }
                }
                if info.depth.is_some() {
                    depth = info.depth;
                }
                false
            }
            Reply::BestMove { .. } | Reply::NoBestMove => true,
            _ => false,
        })?;
        let elapsed = at.saturating_duration_since(start);
        Ok(match reply {
            Reply::BestMove { mv, resign, .. } => GoReply {
                mv: Some(mv),
                resign,
                elapsed,
                score,
                depth,
            },
            _ => GoReply {
                mv: None,
                resign: false,
                elapsed,
                score,
                depth,
            },
        })
    }

    /// Kills the process (and, on Unix, its process group) at once.
    pub fn kill(&mut self) {
        self.stdin = None;
        let running = matches!(self.child.try_wait(), Ok(None));
        #[cfg(unix)]
        if running {
            // The group id is the child's pid (see `spawn`).
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        if running {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        super::children::unregister(self.child.id());
        self.dead = true;
    }

    /// Asks the engine to quit, waits up to `grace`, then kills it.
    pub fn quit(&mut self, grace: Duration) {
        if !self.dead {
            let _ = self.send(&Command::Quit);
            self.stdin = None;
            let deadline = Instant::now() + grace;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    super::children::unregister(self.child.id());
                    self.dead = true;
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.quit(Duration::from_millis(300));
    }
}
