//! Perft speed from the start position (ignored by default; run in release):
//! `cargo test --release --test chess_speed -- --ignored --nocapture`
//! (environment: `PERFT_DEPTH` (default 6), `PERFT_FEN` (default the start position)).

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
    // PERFT_FEN picks another position (the node count is then only printed).
    let fen = std::env::var("PERFT_FEN").ok();
    let mut pos = match &fen {
        Some(f) => Chess::from_fen(f, &GameConfig::default()).unwrap(),
        None => Chess::startpos(&GameConfig::default()),
    };
    // Build the attack tables before timing (Stockfish's start-up is not timed either).
    assert!(pos.perft(2) > 0);
    let t = Instant::now();
    let nodes = pos.perft(depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "sanqi perft {depth}: {nodes} nodes in {secs:.3} s = {:.1} Mnps",
        nodes as f64 / secs / 1e6
    );
    if depth == 6 && fen.is_none() {
        assert_eq!(nodes, 119_060_324);
    }
}
