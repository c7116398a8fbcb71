//! The engine as real clients drive it (issue 29): pipes that close early (commands keep their
//! order; one `bestmove` per `go` even at `quit` or end of input), commands on the command line
//! (OpenBench's client), xiangqi over plain UCI the way GUIs drive Pikafish (a 10-rank FEN picks
//! xiangqi, `--game` sets the game of `startpos`), and the `Debug Log File`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::driver::{Engine, PROMPT};

/// The engine's whole output for `input` on a pipe that closes after it (and the time it took).
fn piped(args: &[&str], input: &str) -> (Vec<String>, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sanqi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    (text.lines().map(str::to_string).collect(), start.elapsed())
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// `go perft` before `quit` completes and prints, as Stockfish's does (the divide is checked by
/// the perft tests; here the order: the count comes before the process ends).
#[test]
fn a_perft_before_quit_completes() {
    let (lines, _) = piped(&[], "position startpos\ngo perft 4\nquit\n");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 197281")
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains(": ")).count(),
        21,
        "{lines:?}"
    );
    // Also at end of input without quit, and for xiangqi (perft 3 of the start: 79,666).
    let (lines, _) = piped(
        &[],
        "setoption name UCI_Variant value xiangqi\nposition startpos\ngo perft 3\n",
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 79666")
    );
}

/// `quit`, or end of input, during a search ends it and prints its `bestmove` first: one per
/// `go`, queued ones included, quickly (docs/speed.md's target is 50 ms from `quit` to exit; a
/// loose bound here, the latency bench measures it).
#[test]
fn quit_or_end_of_input_during_a_search_prints_its_bestmove() {
    for input in [
        "position startpos\ngo depth 60\nquit\n",
        "position startpos\ngo depth 60\n",
        "position startpos\ngo infinite\n",
        "position startpos\ngo wtime 100000 btime 100000\ngo depth 60\ngo movetime 100000\nquit\n",
        "ucci\nposition startpos\ngo depth 60\nquit\n",
    ] {
        let (lines, took) = piped(&[], input);
        let gos = input.matches("go ").count();
        let best = bestmoves(&lines);
        assert_eq!(best.len(), gos, "{input:?}: {lines:?}");
        for b in best {
            assert!(
                b.split_whitespace().nth(1).is_some_and(|m| m.len() >= 4),
                "{b}"
            );
        }
        assert!(took < Duration::from_secs(5), "{input:?} took {took:?}");
        if input.starts_with("ucci") {
            assert_eq!(lines.last().map(String::as_str), Some("bye"), "{lines:?}");
        }
    }
}

/// The same through a live pipe: the `bestmove` comes before the process exits.
#[test]
fn quit_during_a_live_search_prints_bestmove_then_exits() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_prefix("info depth 2", PROMPT);
    e.send("quit");
    e.expect_prefix("bestmove", PROMPT);
    assert!(e.wait_exit(PROMPT));
}

/// Commands as arguments, as OpenBench's client runs engines: each argument is one line, run in
/// order without reading stdin; a bounded search runs to its limit when no `quit` follows.
#[test]
fn commands_on_the_command_line_run_in_order() {
    let (lines, _) = piped(&["position startpos", "go perft 3", "quit"], "");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 8902")
    );
    let (lines, _) = piped(
        &["position startpos moves e2e4", "go depth 6"],
        "go depth 1\n",
    );
    assert_eq!(bestmoves(&lines).len(), 1, "stdin is not read: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "the search ran to its depth: {lines:?}"
    );
    // With `quit`, a search is stopped at once, and still answers.
    let (lines, took) = piped(&["position startpos", "go depth 60", "quit"], "");
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(took < Duration::from_secs(5));
    // `go infinite` without `quit` could never end: it is stopped as at end of input.
    let (lines, _) = piped(&["go infinite"], "");
    assert_eq!(bestmoves(&lines).len(), 1);
    // A bad line is one error, and the rest runs.
    let (lines, _) = piped(&["frobnicate", "go perft 1"], "");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 20"));
}

/// Xiangqi over plain UCI as GUIs drive Pikafish: no `UCI_Variant`, a 10-rank FEN with ICCS
/// moves picks xiangqi (an `info string` says so), an 8-rank FEN picks chess again, and a FEN of
/// neither shape is one error that keeps the position.
#[test]
fn a_ten_rank_fen_selects_xiangqi_over_plain_uci() {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.send(&format!("position fen {XIANGQI_START} moves h2e2 h9g7"));
    let (note, _) = e.expect_prefix("info string ", PROMPT);
    assert_eq!(note, "info string game xiangqi: the position has 10 ranks");
    e.send("go perft 1");
    let (total, divide) = e.expect_prefix("Nodes searched", PROMPT);
    // Red to move after h2e2 h9g7: ICCS moves of ranks 0-9; pyffish counts 35 legal moves
    // (`legal_moves("xiangqi", start, ["h3e3", "h10g8"])`), among them e3e7 (our e2e6).
    assert!(divide.iter().any(|l| l.starts_with("e2e6: ")), "{divide:?}");
    assert_eq!(total, "Nodes searched: 35");
    e.send("go depth 4");
    let (best, _) = e.expect_prefix("bestmove", PROMPT);
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(
        divide.iter().any(|l| l.starts_with(&format!("{mv}: "))),
        "{best}"
    );
    // `startpos` now means xiangqi's (the game stays until another shape or UCI_Variant).
    e.send("position startpos");
    e.send("go perft 2");
    e.expect_prefix("Nodes searched: 1920", PROMPT);
    // An 8-rank FEN: chess again.
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let (note, _) = e.expect_prefix("info string ", PROMPT);
    assert_eq!(note, "info string game chess: the position has 8 ranks");
    e.send("go perft 1");
    e.expect_prefix("Nodes searched: 20", PROMPT);
    // Neither shape: one error; chess after 1. e4 stays.
    e.send("position fen 9/9/9 w - - 0 1");
    let (err, _) = e.expect_prefix("info string error: bad position: ", PROMPT);
    assert!(err.contains("no game has that board"), "{err}");
    e.send("go perft 1");
    let (total, before) = e.expect_prefix("Nodes searched", PROMPT);
    assert_eq!(total, "Nodes searched: 20", "{before:?}");
    // A bad xiangqi FEN of the right shape is an error too, and changes no game.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1");
    e.expect_prefix("info string error: bad position: ", PROMPT);
    e.send("position startpos");
    e.send("go perft 1");
    e.expect_prefix("Nodes searched: 20", PROMPT);
}

/// UCCI is xiangqi only: a chess FEN there is an error, not a switch.
#[test]
fn ucci_does_not_switch_games() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect_prefix("ucciok", PROMPT);
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    e.expect_prefix("info message error: bad position: ", PROMPT);
    e.send("go perft 1");
    e.expect_prefix("Nodes searched: 44", PROMPT);
}

/// `sanqi --game xiangqi`: the game of `startpos` for GUIs that take only a path and
/// arguments; `UCI_Variant` shows it as the default. An unknown game is one error line and the
/// engine runs on with chess.
#[test]
fn the_game_flag_sets_the_game_of_startpos() {
    let mut e = Engine::start_with(&["--game", "xiangqi"]);
    e.send("uci");
    let (_, lines) = e.expect_prefix("uciok", PROMPT);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default xiangqi var chess")),
        "{lines:?}"
    );
    // Black's replies to h2e2: 45 (pyffish, `legal_moves("xiangqi", start, ["h3e3"])`).
    e.send("position startpos moves h2e2");
    e.send("go perft 1");
    e.expect_prefix("Nodes searched: 45", PROMPT);
    e.send("quit");

    let (lines, _) = piped(
        &["--game", "chinesecheckers"],
        "position startpos\ngo perft 1\n",
    );
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 14"));

    let (lines, _) = piped(&["--game", "shogi"], "position startpos\ngo perft 1\n");
    assert!(
        lines[0].starts_with("info string error: --game: unknown game 'shogi'"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 23, "one error, then chess: {lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 20"));
}

/// A fresh path `name` in the folder of these tests (removed first).
fn temp_path(name: &str) -> String {
    support::temp_path("clients-tests", name)
}

/// One log line: `<timestamp> >> <line in>` or `<timestamp> << <line out>`.
fn split_log_line(l: &str) -> (&str, &str, &str) {
    let (stamp, rest) = l.split_once(' ').unwrap();
    let (dir, text) = rest.split_at(2);
    (stamp, dir, text.strip_prefix(' ').unwrap_or(text))
}

/// `Debug Log File`: every line in and out after it is set, in order, marked `>>` (in) or `<<`
/// (out), each with a UTC timestamp; empty turns it off; a file that cannot be opened (a
/// directory, a missing folder, a FIFO, which would block) is one error and logging stays off.
#[test]
fn the_debug_log_has_every_line_in_order() {
    let log = temp_path("debug.log");
    let mut e = Engine::uci();
    e.send(&format!("setoption name Debug Log File value {log}"));
    e.send("isready");
    e.expect_prefix("readyok", PROMPT);
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let (_, _) = e.expect_prefix("bestmove", PROMPT);
    e.send("frobnicate");
    e.expect_prefix("info string error:", PROMPT);
    e.send("setoption name Debug Log File value");
    e.send("isready");
    e.expect_prefix("readyok", PROMPT);
    e.send("go depth 1");
    e.expect_prefix("bestmove", PROMPT);

    let text = std::fs::read_to_string(&log).unwrap();
    let entries: Vec<(&str, &str, &str)> = text.lines().map(split_log_line).collect();
    // What the engine printed after the option, exactly as the client saw it, in order.
    let seen = &e.seen;
    let first_out = seen.iter().position(|l| l == "readyok").unwrap();
    let logged_out: Vec<&str> = entries
        .iter()
        .filter(|(_, d, _)| *d == "<<")
        .map(|(_, _, t)| *t)
        .collect();
    // Up to the error line: the `readyok` after logging was turned off is not logged.
    let last_logged = seen
        .iter()
        .position(|l| l.starts_with("info string error"))
        .unwrap();
    let expected: Vec<&str> = seen[first_out..=last_logged]
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(logged_out, expected);
    let logged_in: Vec<&str> = entries
        .iter()
        .filter(|(_, d, _)| *d == ">>")
        .map(|(_, _, t)| *t)
        .collect();
    assert_eq!(
        logged_in,
        [
            "isready",
            "position startpos moves e2e4",
            "go depth 3",
            "frobnicate",
            "setoption name Debug Log File value"
        ]
    );
    // The order: each input line comes before the replies it caused.
    let pos = |dir: &str, text: &str| {
        entries
            .iter()
            .position(|(_, d, t)| *d == dir && *t == text)
            .unwrap()
    };
    assert!(pos(">>", "isready") < pos("<<", "readyok"));
    assert!(
        pos(">>", "go depth 3")
            < entries
                .iter()
                .position(|(_, _, t)| t.starts_with("bestmove"))
                .unwrap()
    );
    assert!(
        pos(">>", "frobnicate")
            < entries
                .iter()
                .position(|(_, _, t)| t.starts_with("info string error"))
                .unwrap()
    );
    // Timestamps: 2026-12-02T18:50:01.123Z, never going back.
    let stamps: Vec<&str> = entries.iter().map(|(s, _, _)| *s).collect();
    for s in &stamps {
        assert_eq!(s.len(), 24, "{s}");
        assert!(s.ends_with('Z') && &s[10..11] == "T", "{s}");
    }
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");

    // Files that cannot be logged to: one error each, and the engine goes on.
    let dir = format!("{}/clients-tests", env!("CARGO_TARGET_TMPDIR"));
    let fifo = temp_path("debug.fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut bad = vec![dir.clone(), format!("{dir}/no/such/folder/log")];
    if made {
        bad.push(fifo);
    }
    for path in bad {
        e.send(&format!("setoption name Debug Log File value {path}"));
        let (err, _) = e.expect_prefix("info string error: ", PROMPT);
        assert!(err.contains("logging stays off"), "{err}");
        e.sync();
    }
    let size = std::fs::metadata(&log).unwrap().len();
    e.send("go depth 1");
    e.expect_prefix("bestmove", PROMPT);
    assert_eq!(
        std::fs::metadata(&log).unwrap().len(),
        size,
        "logging is off"
    );
}

/// The `info string genfens <fen>` lines of `sanqi "genfens ..." quit`, as OpenBench's client
/// runs it (one argument with a trailing space when the workload has no extra words).
fn genfens(args: &str) -> Vec<String> {
    let (lines, _) = piped(&[args, "quit"], "");
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string genfens ").map(str::to_string))
        .collect()
}

/// `genfens` as OpenBench calls it: N six-field FENs of legal, unfinished positions, the same
/// for a seed and different across seeds, balanced by a short search, Chess960 starts on
/// request, book lines used when a book is given; bad arguments are one error each.
#[test]
fn genfens_gives_deterministic_balanced_openings() {
    use sanqi::game::chess::{Chess, ChessConfig};
    use sanqi::game::prelude::*;
    let a = genfens("genfens 6 seed 1 book None ");
    assert_eq!(a.len(), 6, "{a:?}");
    assert_eq!(genfens("genfens 6 seed 1 book None "), a);
    let b = genfens("genfens 6 seed 2 book None ");
    assert_ne!(a, b);
    let all: std::collections::HashSet<&String> = a.iter().collect();
    assert_eq!(all.len(), 6, "six different openings: {a:?}");
    let config = ChessConfig::default();
    for fen in a.iter().chain(&b) {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        let pos = Chess::from_fen(fen, &config).unwrap();
        assert!(pos.outcome().is_none(), "{fen}");
        // Eight random plies from the start: the full-move number is 5, white to move.
        assert!(fen.ends_with(" 5") && fen.contains(" w "), "{fen}");
    }
    // Chess960 starts: back ranks other than the standard one.
    let frc = genfens("genfens 8 seed 3 book None frc");
    assert_eq!(frc.len(), 8);
    assert!(
        frc.iter()
            .any(|f| !f.ends_with(" 5") || !f.contains("KQkq")),
        "{frc:?}"
    );
    // A book: openings start from its lines (two random plies later).
    let book = temp_path("book.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 0; fmvn 2;\n",
    )
    .unwrap();
    let from_book = genfens(&format!("genfens 3 seed 1 book {book}"));
    assert_eq!(from_book.len(), 3);
    for fen in &from_book {
        assert!(fen.ends_with(" 3"), "two plies after move 2: {fen}");
    }
    // Every kept opening scores within the margin (default 25, or `margin=<cp>`) by the same
    // 2000-node search from a fresh state (`ucinewgame`, `go nodes 2000`), read here over the
    // protocol.
    let tight = genfens("genfens 6 seed 4 book None margin=10");
    assert_eq!(tight.len(), 6);
    let scores = |fens: &[String]| -> Vec<i32> {
        // (Commands as arguments and no `quit`: each bounded search runs to its limit.)
        let mut script = Vec::new();
        for fen in fens {
            script.extend([
                "ucinewgame".to_string(),
                format!("position fen {fen}"),
                "go nodes 2000".to_string(),
            ]);
        }
        let script: Vec<&str> = script.iter().map(String::as_str).collect();
        let (lines, _) = piped(&script, "");
        let mut scores = Vec::new();
        let mut last = None;
        for l in &lines {
            if let Some(cp) = l.split(" score cp ").nth(1) {
                last = cp
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse::<i32>().ok());
            }
            if l.starts_with("bestmove") {
                scores.push(last.take().expect("a score before each bestmove"));
            }
        }
        assert_eq!(scores.len(), fens.len(), "{lines:?}");
        scores
    };
    let s = scores(&tight);
    assert!(s.iter().all(|s| s.abs() <= 10), "{s:?}");
    let s = scores(&a);
    assert!(s.iter().all(|s| s.abs() <= 25), "default margin 25: {s:?}");
    // Without a margin (`margin=100000`) the same seed keeps other openings, at least one of
    // them outside 25.
    let loose = genfens("genfens 6 seed 1 book None margin=100000");
    assert_ne!(loose, a);
    assert!(scores(&loose).iter().any(|s| s.abs() > 25), "{loose:?}");
    // Bad arguments: one error line each, nothing else.
    for bad in [
        "genfens 2 seed 1 book None margin=-5",
        "genfens 2 seed 1 book None margin=x",
        "genfens x seed 1 book None",
        "genfens 2 seed 1 book /no/such/book.epd",
        "genfens 2 seed 1 book None shogi",
        "genfens 0 seed 1 book None",
        "genfens 2 book None",
    ] {
        let (lines, _) = piped(&[bad, "quit"], "");
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
    }
}

/// A whole transcript as xiangqi GUIs send it over plain UCI (Pikafish's way), by FEN and by
/// `--game xiangqi` with `startpos`, every `bestmove` judged legal by pyffish
/// (`tests/python/xiangqi_uci_gui.py`).
#[test]
fn xiangqi_gui_transcripts_over_plain_uci_are_legal_by_pyffish() {
    if !support::python_oracle("pyffish") {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/xiangqi_uci_gui.py"
    );
    let out = Command::new(support::python())
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sanqi"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("every move legal by pyffish"), "{stdout}");
}
