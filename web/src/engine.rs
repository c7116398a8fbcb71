//! One engine process spoken to over the protocol, as any GUI would: lines out, lines in.
//!
//! The reader side runs on its own thread and hands lines over a channel, so that every wait has a
//! deadline: an engine that hangs is noticed (`EngineError::Timeout`) and one that dies is noticed
//! at once (`EngineError::Crashed`, the channel closes). The reader also reaps the process when
//! its output ends, so an engine killed while its game is idle leaves no zombie behind. The
//! parsers are pure functions of the engine's lines, tested without any process.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the handshake and the quick commands (`d`, `moves`, `isready`) may take.
pub const QUICK: Duration = Duration::from_secs(5);
/// What a search may run past its `movetime` before it counts as hung.
pub const SEARCH_GRACE: Duration = Duration::from_millis(2000);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended, or its pipes broke.
    Crashed(String),
    /// No expected answer before the deadline.
    Timeout(String),
    /// The engine answered, but not with what a correct engine says (an error line, a bad move).
    Protocol(String),
    /// No engine could be started: every engine the server allows is busy.
    Busy(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Crashed(m) => write!(f, "the engine stopped: {m}"),
            EngineError::Timeout(m) => write!(f, "the engine did not answer: {m}"),
            EngineError::Protocol(m) => write!(f, "the engine answered badly: {m}"),
            EngineError::Busy(m) => write!(f, "{m}"),
        }
    }
}

/// A move with the cells of its witness path (`k3k5`, `[k3, k5]`; the pass has no path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMove {
    pub mv: String,
    pub path: Vec<String>,
}

/// What `d` says about the position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Display {
    pub fen: String,
    pub to_move: Option<char>,
    pub winner: Option<char>,
}

/// The process, while it is not reaped: shared by the engine and its reader thread.
type Process = Arc<Mutex<Option<Child>>>;

/// The process (if any), its input, and the channel of its output lines.
pub struct Engine {
    child: Process,
    pid: Option<u32>,
    input: Box<dyn Write + Send>,
    lines: Receiver<String>,
    /// Dropped by the reader thread after the process is reaped, as that thread ends (the
    /// server's count of engine processes and their threads).
    held: Held,
    /// Closed when the reader thread has ended.
    ended: Receiver<()>,
}

type Held = Arc<Mutex<Option<Box<dyn Send>>>>;

/// Kills and reaps the process, if it is not reaped yet.
fn reap(child: &Process) {
    let taken = match child.lock() {
        Ok(mut c) => c.take(),
        Err(poisoned) => poisoned.into_inner().take(),
    };
    if let Some(mut c) = taken {
        let _ = c.kill();
        let _ = c.wait();
    }
}

impl Engine {
    /// Starts the engine binary at `path`.
    pub fn spawn(path: &Path) -> Result<Engine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Crashed(format!("cannot start {}: {e}", path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Crashed("no pipes to the engine".into()));
        };
        let pid = child.id();
        let process: Process = Arc::new(Mutex::new(Some(child)));
        let mut engine = Engine::start(
            Box::new(stdin),
            Box::new(BufReader::new(stdout)),
            Arc::clone(&process),
        );
        engine.pid = Some(pid);
        Ok(engine)
    }

    /// An engine over any pair of streams (the tests' fakes).
    #[cfg(test)]
    pub fn from_io(input: Box<dyn Write + Send>, output: Box<dyn BufRead + Send>) -> Engine {
        Engine::start(input, output, Arc::new(Mutex::new(None)))
    }

    fn start(
        input: Box<dyn Write + Send>,
        output: Box<dyn BufRead + Send>,
        child: Process,
    ) -> Engine {
        let (tx, rx) = mpsc::channel();
        let (ended_tx, ended) = mpsc::channel::<()>();
        let reaper = Arc::clone(&child);
        let held: Held = Arc::new(Mutex::new(None));
        let holder = Arc::clone(&held);
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
            // The output ended: the process died (or closed it, and is of no use): reaped now,
            // not at the game's next request.
            reap(&reaper);
            let slot = match holder.lock() {
                Ok(mut h) => h.take(),
                Err(poisoned) => poisoned.into_inner().take(),
            };
            drop(slot);
            drop(ended_tx);
        });
        Engine {
            child,
            pid: None,
            input,
            lines: rx,
            held,
            ended,
        }
    }

    /// The process id, for an engine that is a process.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Keeps `value` until the process is ended and reaped (a slot of the server's engine count).
    pub fn hold(&mut self, value: Box<dyn Send>) {
        match self.held.lock() {
            Ok(mut h) => *h = Some(value),
            Err(poisoned) => *poisoned.into_inner() = Some(value),
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| EngineError::Crashed(format!("writing `{line}`: {e}")))
    }

    /// Reads lines until one satisfies `done` (included in the answer) or `timeout` passes.
    pub fn read_until(
        &mut self,
        timeout: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim_end().to_string();
                    let end = done(&line);
                    out.push(line);
                    if end {
                        return Ok(out);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout(format!("no {what} in {timeout:?}")))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Crashed(format!(
                        "output closed waiting for {what}"
                    )))
                }
            }
        }
    }

    /// `uci`, the game and its rules, `isready`.
    pub fn handshake(
        &mut self,
        players: usize,
        goal_lock: bool,
        no_foreign_stop: bool,
    ) -> Result<(), EngineError> {
        self.send("uci")?;
        self.read_until(QUICK, "uciok", |l| l == "uciok")?;
        self.send("setoption name UCI_Variant value chinesecheckers")?;
        self.send(&format!("setoption name CC Players value {players}"))?;
        self.send(&format!("setoption name CC Goal Lock value {goal_lock}"))?;
        self.send(&format!(
            "setoption name CC No Foreign Stop value {no_foreign_stop}"
        ))?;
        let lines = self.ready()?;
        first_error(&lines)
    }

    /// `isready`, and every line up to `readyok`.
    pub fn ready(&mut self) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        self.read_until(QUICK, "readyok", |l| l == "readyok")
    }

    /// `position startpos moves ...`; an error line means a move was refused.
    pub fn position(&mut self, moves: &[String]) -> Result<(), EngineError> {
        let mut line = String::from("position startpos");
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        self.send(&line)?;
        let lines = self.ready()?;
        first_error(&lines)
    }

    /// `d`, read up to `readyok`.
    pub fn display(&mut self) -> Result<Display, EngineError> {
        self.send("d")?;
        let lines = self.ready()?;
        parse_display(&lines)
    }

    /// `moves [cell]`: the legal moves (of one piece) with their paths.
    pub fn moves(&mut self, cell: Option<&str>) -> Result<Vec<PathMove>, EngineError> {
        self.send(&match cell {
            Some(c) => format!("moves {c}"),
            None => "moves".to_string(),
        })?;
        let lines = self.read_until(QUICK, "end of moves", |l| {
            l == "info string end of moves" || l.starts_with("info string error")
        })?;
        first_error(&lines)?;
        Ok(lines.iter().filter_map(|l| parse_move_line(l)).collect())
    }

    /// `go movetime <ms>` at a `Skill Level`: the best move and its path.
    pub fn go(&mut self, skill: u32, movetime: u64) -> Result<PathMove, EngineError> {
        self.send(&format!("setoption name Skill Level value {skill}"))?;
        self.send(&format!("go movetime {movetime}"))?;
        let limit = Duration::from_millis(movetime) + SEARCH_GRACE;
        let lines = match self.read_until(limit, "bestmove", |l| l.starts_with("bestmove")) {
            Ok(lines) => lines,
            Err(EngineError::Timeout(_)) => {
                // One `stop` before calling it hung.
                self.send("stop")?;
                self.read_until(QUICK / 5, "bestmove after stop", |l| {
                    l.starts_with("bestmove")
                })?
            }
            Err(e) => return Err(e),
        };
        parse_search(&lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // `quit` ends a healthy engine at once; a hung one is killed. Then the reader thread
        // ends (the output closed) and drops `held`.
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            let done = match self.child.lock() {
                Ok(mut c) => match c.as_mut() {
                    None => true,
                    Some(child) => {
                        let exited = matches!(child.try_wait(), Ok(Some(_)));
                        if exited {
                            *c = None;
                        }
                        exited
                    }
                },
                Err(_) => false,
            };
            if done {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        reap(&self.child);
        // Its place in the count is free when this returns (unless the output stays open).
        let _ = self.ended.recv_timeout(Duration::from_millis(500));
    }
}

fn first_error(lines: &[String]) -> Result<(), EngineError> {
    match lines.iter().find(|l| l.starts_with("info string error")) {
        Some(l) => Err(EngineError::Protocol(l.clone())),
        None => Ok(()),
    }
}

/// `info string move k3k5 path k3 k5` -> the move and its path.
pub fn parse_move_line(line: &str) -> Option<PathMove> {
    let rest = line.strip_prefix("info string move ")?;
    let mut tokens = rest.split_whitespace();
    let mv = tokens.next()?.to_string();
    let path = match tokens.next() {
        Some("path") => tokens.map(str::to_string).collect(),
        _ => Vec::new(),
    };
    Some(PathMove { mv, path })
}

/// The lines of a search: `info string path ...` (if any), then `bestmove <m> [ponder <m>]`.
pub fn parse_search(lines: &[String]) -> Result<PathMove, EngineError> {
    let best = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove"))
        .ok_or_else(|| EngineError::Protocol("no bestmove".into()))?;
    let mv = best
        .split_whitespace()
        .next()
        .ok_or_else(|| EngineError::Protocol("empty bestmove".into()))?
        .to_string();
    if mv == "(none)" {
        return Err(EngineError::Protocol(
            "bestmove (none): no move in this position".into(),
        ));
    }
    let path = lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("info string path "))
        .map(|p| p.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(PathMove { mv, path })
}

/// `Fen: <position string>`, `Players: AD  To move: A  Rules: standard`, `Winner: none|A`.
pub fn parse_display(lines: &[String]) -> Result<Display, EngineError> {
    let mut d = Display::default();
    for line in lines {
        if let Some(fen) = line.strip_prefix("Fen: ") {
            d.fen = fen.trim().to_string();
        } else if let Some(w) = line.strip_prefix("Winner: ") {
            d.winner = letter(w.trim());
        } else if let Some(at) = line.find("To move: ") {
            d.to_move = line[at + "To move: ".len()..]
                .split_whitespace()
                .next()
                .and_then(letter);
        }
    }
    if d.fen.is_empty() {
        return Err(EngineError::Protocol("`d` printed no Fen line".into()));
    }
    Ok(d)
}

fn letter(s: &str) -> Option<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ 'A'..='F'), None) => Some(c),
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::sync::{Arc, Mutex};

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl Sink {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn canned(output: &str) -> (Engine, Sink) {
        let sink = Sink::default();
        let e = Engine::from_io(
            Box::new(sink.clone()),
            Box::new(Cursor::new(output.to_string().into_bytes())),
        );
        (e, sink)
    }

    #[test]
    fn move_lines() {
        assert_eq!(
            parse_move_line("info string move k3k7 path k3 k5 k7"),
            Some(PathMove {
                mv: "k3k7".into(),
                path: vec!["k3".into(), "k5".into(), "k7".into()]
            })
        );
        // The pass has an empty path (the engine writes `path ` with a trailing space).
        assert_eq!(
            parse_move_line("info string move 0000 path"),
            Some(PathMove {
                mv: "0000".into(),
                path: vec![]
            })
        );
        assert_eq!(parse_move_line("info string end of moves"), None);
        assert_eq!(parse_move_line("info depth 3"), None);
    }

    #[test]
    fn search_lines() {
        let lines: Vec<String> = [
            "info depth 1 score cp 3 pv k3i5",
            "info string path k3 i5",
            "bestmove k3i5 ponder e15e13",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            parse_search(&lines).unwrap(),
            PathMove {
                mv: "k3i5".into(),
                path: vec!["k3".into(), "i5".into()]
            }
        );
        let pass = vec!["bestmove 0000".to_string()];
        assert_eq!(
            parse_search(&pass).unwrap(),
            PathMove {
                mv: "0000".into(),
                path: vec![]
            }
        );
        assert!(matches!(
            parse_search(&["bestmove (none)".to_string()]),
            Err(EngineError::Protocol(_))
        ));
        assert!(matches!(parse_search(&[]), Err(EngineError::Protocol(_))));
    }

    #[test]
    fn display_lines() {
        let lines: Vec<String> = [
            "  1              A",
            "Fen: A/AA/AAA/AAAA/13/12/11/10/9/10/11/12/13/4/3/2/1 AD D 0",
            "Key: B191B5E311DD67D2",
            "Players: AD  To move: D  Rules: standard",
            "Winner: A",
            "readyok",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let d = parse_display(&lines).unwrap();
        assert_eq!(
            d.fen,
            "A/AA/AAA/AAAA/13/12/11/10/9/10/11/12/13/4/3/2/1 AD D 0"
        );
        assert_eq!((d.to_move, d.winner), (Some('D'), Some('A')));
        assert!(parse_display(&["Winner: none".to_string()]).is_err());
    }

    #[test]
    fn protocol_lines_in_state_out() {
        let (mut e, sink) = canned(
            "id name sanqi\nuciok\nreadyok\nreadyok\ninfo string move m4m5 path m4 m5\ninfo string move k3k7 path k3 k5 k7\ninfo string end of moves\n",
        );
        e.handshake(2, true, false).unwrap();
        e.position(&["k3k5".into(), "e15e13".into()]).unwrap();
        let moves = e.moves(None).unwrap();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[1].path, vec!["k3", "k5", "k7"]);
        let sent = sink.text();
        assert!(sent.starts_with("uci\nsetoption name UCI_Variant value chinesecheckers\nsetoption name CC Players value 2\n"), "{sent}");
        assert!(sent.contains("setoption name CC Goal Lock value true\nsetoption name CC No Foreign Stop value false\nisready\n"));
        assert!(sent.contains("position startpos moves k3k5 e15e13\nisready\nmoves\n"));
        // The output ended: the next question finds the engine gone.
        assert!(matches!(e.display(), Err(EngineError::Crashed(_))));
    }

    #[test]
    fn error_lines_are_protocol_errors() {
        let (mut e, _) =
            canned("info string error: illegal move zz\nreadyok\ninfo string error: bad cell\n");
        assert!(matches!(
            e.position(&["zz".into()]),
            Err(EngineError::Protocol(_))
        ));
        assert!(matches!(e.moves(Some("z9")), Err(EngineError::Protocol(_))));
    }

    #[test]
    fn silence_is_a_timeout() {
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let mut e = Engine {
            child: Arc::new(Mutex::new(None)),
            pid: None,
            input: Box::new(Sink::default()),
            lines: rx,
            held: Arc::new(Mutex::new(None)),
            ended: std::sync::mpsc::channel().1,
        };
        let r = e.read_until(Duration::from_millis(50), "uciok", |l| l == "uciok");
        assert!(matches!(r, Err(EngineError::Timeout(_))));
        drop(tx);
        let r = e.read_until(Duration::from_millis(50), "uciok", |l| l == "uciok");
        assert!(matches!(r, Err(EngineError::Crashed(_))));
    }
}
