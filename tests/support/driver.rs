//! A pipe driver for the built `sanqi` binary, shared by the transcript tests.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Generous bound for replies that should come "at once" (the real latency is benchmarked).
pub const PROMPT: Duration = Duration::from_secs(2);

/// Whether `line` is a `bestmove` line.
pub fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove")
}

/// Checks that handshake `lines` name the engine (`id name sanqi ...`) and its authors.
pub fn assert_ids(lines: &[String]) {
    assert!(
        lines.iter().any(|l| l.starts_with("id name sanqi")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("id author ")),
        "{lines:?}"
    );
}

/// The engine under test, driven over its standard input and output.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the binary with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts the protocol loop and completes the UCI handshake.
    pub fn uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.expect_prefix("uciok", PROMPT);
        e
    }

    /// Starts the binary with arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sanqi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start sanqi");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Closes standard input (end of input means quit).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line within `timeout`, or None.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns it and the lines before it.
    /// Panics with the transcript if none comes within `timeout`.
    pub fn expect(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return (l, before),
                Some(l) => before.push(l),
                None => panic!(
                    "no line {what} within {timeout:?}; transcript so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str, timeout: Duration) -> (String, Vec<String>) {
        let p = prefix.to_string();
        self.expect(&format!("starting with {prefix:?}"), timeout, move |l| {
            l.starts_with(&p)
        })
    }

    /// Collects every line that arrives within `window`.
    pub fn drain(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut out = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            out.push(l);
        }
        out
    }

    /// Waits for `bestmove`, checks it names a move, and that no second one follows.
    pub fn expect_one_bestmove(&mut self) {
        let (best, _) = self.expect_prefix("bestmove", PROMPT);
        assert!(
            best.split_whitespace().nth(1).is_some_and(|m| m.len() >= 4),
            "{best}"
        );
        let after = self.drain(Duration::from_millis(300));
        assert!(!after.iter().any(|l| is_bestmove(l)), "{after:?}");
    }

    /// `go perft <depth>`: the `Nodes searched` line and the divide lines before it.
    pub fn perft(&mut self, depth: u32) -> (String, Vec<String>) {
        self.send(&format!("go perft {depth}"));
        self.expect_prefix("Nodes searched", PROMPT)
    }

    /// `go perft <depth>` must count `nodes`; returns the divide lines.
    pub fn expect_perft(&mut self, depth: u32, nodes: u64) -> Vec<String> {
        let (total, before) = self.perft(depth);
        assert_eq!(total, format!("Nodes searched: {nodes}"), "{before:?}");
        before
    }

    /// `isready` round trip.
    pub fn sync(&mut self) {
        self.send("isready");
        self.expect_prefix("readyok", PROMPT);
    }

    /// Waits for the process to exit (no time limit).
    pub fn wait(&mut self) {
        let _ = self.child.wait();
    }

    /// Waits up to `timeout` for the process to exit; true if it did.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
