//! Perft speed from the start position (ignored by default; run in release):
//! `cargo test --release --test chess_speed -- --ignored --nocapture`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use sanqi::game::chess::Chess;
use sanqi::game::{Game, GameConfig};

#[test]
#[ignore]
fn perft6_startpos_speed() {
    let depth: u32 = std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(6);
    let mut pos = Chess::startpos(&GameConfig::default());
    // Build the attack tables before timing (Stockfish's start-up is not timed either).
    assert_eq!(pos.perft(2), 400);
    let t = Instant::now();
    let nodes = pos.perft(depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "sanqi perft {depth}: {nodes} nodes in {secs:.3} s = {:.1} Mnps",
        nodes as f64 / secs / 1e6
    );
    if depth == 6 {
        assert_eq!(nodes, 119_060_324);
    }
}
