//! `OwnBook`, `Book File` and `Book Depth` over UCI: moves come from the book (as python-chess
//! reads it) while it has one and the game is shorter than `Book Depth`; otherwise, with
//! `OwnBook` off, for `go infinite`, and after a bad `Book File`, the engine searches.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::time::Duration;

use support::driver::Engine;
use support::{python_oracle, run_python, test_data};

const WAIT: Duration = Duration::from_secs(20);

/// The moves python-chess's `find_all` gives for the position after `moves` from the start.
fn book_moves(book: &std::path::Path, moves: &str) -> Vec<String> {
    let script = "import sys, chess, chess.polyglot\n\
        path = sys.stdin.readline().strip()\n\
        board = chess.Board()\n\
        for m in sys.stdin.readline().split(): board.push_uci(m)\n\
        print(' '.join(e.move.uci() for e in chess.polyglot.open_reader(path).find_all(board)))\n";
    let (status, out) = run_python(script, format!("{}\n{moves}\n", book.display()));
    assert!(status.success());
    out.split_whitespace().map(str::to_owned).collect()
}

/// Sends `go` after `moves` and gives the `bestmove` and whether a `book move` line came first.
fn go(engine: &mut Engine, moves: &str, go: &str) -> (String, bool) {
    if moves.is_empty() {
        engine.send("position startpos");
    } else {
        engine.send(&format!("position startpos moves {moves}"));
    }
    engine.send(go);
    let (best, before) = engine.expect_prefix("bestmove", WAIT);
    let from_book = before
        .iter()
        .any(|l| l.starts_with("info string book move"));
    let m = best.split_whitespace().nth(1).unwrap().to_owned();
    (m, from_book)
}

#[test]
fn own_book_plays_book_moves_within_book_depth() {
    if !python_oracle("chess") {
        return;
    }
    let Some(dir) = test_data("polyglot") else {
        return;
    };
    let book = dir.join("gnuchess-book.bin");
    if !book.is_file() {
        support::oracle_missing(&book.display().to_string());
        return;
    }
    let mut e = Engine::uci();
    e.send(&format!(
        "setoption name Book File value {}",
        book.display()
    ));
    let (loaded, _) = e.expect_prefix("info string loaded book", WAIT);
    assert!(loaded.contains("180358 entries"), "{loaded}");
    // OwnBook is off by default: a search.
    let (_, from_book) = go(&mut e, "", "go nodes 2000");
    assert!(!from_book);
    e.send("setoption name OwnBook value true");
    let start = book_moves(&book, "");
    let mut seen = Vec::new();
    for _ in 0..12 {
        let (m, from_book) = go(&mut e, "", "go wtime 10000 btime 10000");
        assert!(from_book && start.contains(&m), "{m} not in {start:?}");
        seen.push(m);
    }
    seen.sort();
    seen.dedup();
    assert!(seen.len() >= 2, "always {seen:?}");
    let line = "e2e4 c7c5 g1f3";
    let (m, from_book) = go(&mut e, line, "go movetime 50");
    assert!(from_book && book_moves(&book, line).contains(&m), "{m}");
    // Book Depth 3: the fourth ply is searched; go infinite always searches.
    e.send("setoption name Book Depth value 3");
    let (_, from_book) = go(&mut e, line, "go nodes 2000");
    assert!(!from_book);
    let (_, from_book) = go(&mut e, "e2e4", "go nodes 2000");
    assert!(from_book);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (_, before) = e.expect_prefix("bestmove", WAIT);
    assert!(!before.iter().any(|l| l.contains("book move")));
    // Out of book: a search.
    let (_, from_book) = go(&mut e, "a2a3 h7h6 h2h3 a7a6", "go nodes 2000");
    assert!(!from_book);
    // A bad file is one error; the book read before stays.
    e.send("setoption name Book File value /nonexistent/book.bin");
    let (err, _) = e.expect_prefix("info string error:", WAIT);
    assert!(err.contains("/nonexistent/book.bin"), "{err}");
    let (_, from_book) = go(&mut e, "", "go nodes 2000");
    assert!(from_book);
    // An empty name: no book.
    e.send("setoption name Book File value");
    let (_, from_book) = go(&mut e, "", "go nodes 2000");
    assert!(!from_book);
    e.send("quit");
    e.wait();
}
