//! `sanqi match` ends every engine it started however it ends: SIGTERM or SIGINT sent to the
//! runner alone, or a closed stdout, with engines that ignore `quit` and the end of their input
//! (tests/fake_engines/fake.py --ignore-quit). Games finished before stay in the PGN.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/fake.py");

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match-signals-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A chess match of two fakes that ignore `quit` and end of input: game 1 ends at once (A plays
/// `zz99`, an illegal move), in game 2 B never answers its first `go` (a hang the referee would
/// wait two minutes for).
fn start_match(d: &Path, stdout: Stdio) -> Child {
    start_rounds(d, stdout, 1)
}

/// [`start_match`] with `rounds` rounds (two games each; from game 3 on, the pattern repeats).
fn start_rounds(d: &Path, stdout: Stdio, rounds: u32) -> Child {
    let engine = |name: &str, silent: &str| {
        format!(
            "--engine cmd=python3 name={name} arg={FAKE} arg=--ignore-quit arg=--always \
             arg=zz99 arg=--silent-at arg={silent} arg=--pidfile arg={}",
            d.join(name).display()
        )
    };
    let line = format!(
        "match --game chess {} {} --movetime 60000 --hang-grace 60000 --rounds {rounds} --pgn {}",
        engine("A", "2"),
        engine("B", "1"),
        d.join("games.pgn").display()
    );
    Command::new(env!("CARGO_BIN_EXE_sanqi"))
        .args(line.split_whitespace())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !done() {
        assert!(Instant::now() < deadline, "{what} within {timeout:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pid(d: &Path, name: &str) -> u32 {
    std::fs::read_to_string(d.join(name))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Running: present in /proc and not a zombie.
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z"),
        Err(_) => false,
    }
}

fn games_in_pgn(d: &Path) -> usize {
    std::fs::read_to_string(d.join("games.pgn"))
        .map(|t| t.matches("[Result ").count())
        .unwrap_or(0)
}

/// Waits for game 1 in the PGN and both engines up; returns their pids.
fn game_one_played(d: &Path) -> [u32; 2] {
    wait_until("game 1 in the PGN", Duration::from_secs(30), || {
        games_in_pgn(d) == 1
    });
    [pid(d, "A"), pid(d, "B")]
}

fn assert_ended(runner: &mut Child, pids: [u32; 2], code: i32) {
    let mut status = None;
    wait_until("the runner's exit", Duration::from_secs(10), || {
        status = runner.try_wait().unwrap();
        status.is_some()
    });
    assert_eq!(status.unwrap().code(), Some(code));
    wait_until("the engines' end", Duration::from_secs(5), || {
        pids.iter().all(|&p| !running(p))
    });
}

#[test]
fn sigterm_and_sigint_to_the_runner_alone_end_its_engines() {
    for (sig, code) in [("TERM", 143), ("INT", 130)] {
        let d = dir(sig);
        // Games left in the queue must not be started once the runner is ending, nor counted.
        let mut runner = start_rounds(&d, Stdio::piped(), 3);
        let pids = game_one_played(&d);
        assert!(pids.iter().all(|&p| running(p)));
        let sent = Command::new("kill")
            .args([format!("-{sig}"), runner.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        assert_ended(&mut runner, pids, code);
        let mut err = String::new();
        std::io::Read::read_to_string(runner.stderr.as_mut().unwrap(), &mut err).unwrap();
        assert!(err.contains(&format!("stopped by SIG{sig}")), "{err}");
        assert!(err.contains("2 engine process(es) ended"), "{err}");
        // The finished game is complete in the PGN.
        let pgn = std::fs::read_to_string(d.join("games.pgn")).unwrap();
        assert_eq!(games_in_pgn(&d), 1, "{pgn}");
        assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
        let mut out = String::new();
        std::io::Read::read_to_string(runner.stdout.as_mut().unwrap(), &mut out).unwrap();
        let counted: Vec<&str> = out.lines().filter(|l| l.starts_with("Score of")).collect();
        assert_eq!(counted.len(), 1, "{out}");
        assert!(counted[0].contains(" 1/6"), "{out}");
    }
}

#[test]
fn a_closed_stdout_ends_the_runner_and_its_engines() {
    let d = dir("pipe");
    let mut runner = start_match(&d, Stdio::piped());
    // Nobody reads: the first `Finished game 1` line meets a closed pipe.
    drop(runner.stdout.take());
    let pids = game_one_played(&d);
    assert_ended(&mut runner, pids, 141);
}
