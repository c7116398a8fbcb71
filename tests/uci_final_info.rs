//! The last `info ... pv` line before every `bestmove` starts with the move played, in both
//! dialects and however the search ended: by `go nodes` (deterministic; the Kiwipete case at
//! 43,000 nodes is one where the search is cut inside an iteration after the best move changed,
//! and the engine before this rule sent `bestmove e2a6` after a last `pv d5e6`), by a short
//! `go movetime`, by `stop`, by a clock, and by depth.

#![allow(clippy::expect_used)]

mod support;

use std::time::Duration;

use support::driver::{Engine, PROMPT};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const ITALIAN: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
const XIANGQI: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

/// Reads up to `bestmove` and checks that the line just before it (or before the game's
/// annotation line) is an `info` line whose `pv` starts with the move played.
fn check_last_pv(engine: &mut Engine, what: &str) {
    let (best, before) = engine.expect_prefix("bestmove", Duration::from_secs(20));
    let played = best.split_whitespace().nth(1).expect("a move");
    let last = before
        .iter()
        .rev()
        .find(|l| !l.starts_with("info string") && !l.starts_with("info message"))
        .unwrap_or_else(|| panic!("{what}: no info line before {best}"));
    let pv_first = last
        .split(" pv ")
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next());
    assert_eq!(
        pv_first,
        Some(played),
        "{what}: the last line before `{best}` is `{last}`"
    );
    assert!(
        last.contains(" depth ") && last.contains(" score "),
        "{what}: {last}"
    );
}

#[test]
fn go_nodes_ends_with_a_pv_that_starts_with_the_bestmove() {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go nodes 43000");
    check_last_pv(&mut e, "kiwipete nodes 43000");
    for fen in [KIWIPETE, ITALIAN] {
        for nodes in (1_000..60_000).step_by(2_300) {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            e.send(&format!("go nodes {nodes}"));
            check_last_pv(&mut e, &format!("{fen} nodes {nodes}"));
        }
    }
}

#[test]
fn short_movetimes_clocks_depths_and_stop_end_with_the_bestmove_pv() {
    let mut e = Engine::uci();
    for (i, go) in [
        "go movetime 5",
        "go movetime 17",
        "go movetime 60",
        "go wtime 300 btime 300 winc 5 binc 5",
        "go depth 7",
    ]
    .iter()
    .enumerate()
    {
        let fen = if i % 2 == 0 { KIWIPETE } else { ITALIAN };
        e.send(&format!("position fen {fen}"));
        e.send(go);
        check_last_pv(&mut e, go);
    }
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(40));
    e.send("stop");
    check_last_pv(&mut e, "go infinite + stop");
    e.send("isready");
    e.expect_prefix("readyok", PROMPT);
}

#[test]
fn ucci_and_uci_xiangqi_and_chinese_checkers_end_with_the_bestmove_pv() {
    let mut e = Engine::start();
    e.send("ucci");
    e.expect_prefix("ucciok", PROMPT);
    for go in ["go depth 5", "go nodes 7000", "go time 1 increment 0"] {
        e.send(&format!("position fen {XIANGQI}"));
        e.send(go);
        check_last_pv(&mut e, &format!("ucci {go}"));
    }
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value xiangqi");
    e.send(&format!("position fen {XIANGQI}"));
    e.send("go movetime 30");
    check_last_pv(&mut e, "uci xiangqi movetime 30");
    e.send("setoption name UCI_Variant value chinesecheckers");
    e.send("setoption name CC Players value 3");
    e.send("position startpos");
    e.send("go nodes 5000");
    // Chinese checkers prints `info string path ...` between the last info and bestmove.
    check_last_pv(&mut e, "chinese checkers nodes 5000");
}
