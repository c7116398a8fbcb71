//! Perft of every row of ../shared/perft/chess.tsv (Stockfish 15.1 counts, cross-checked with
//! python-chess). Debug builds run rows up to 2 million nodes; `cargo test --release` runs all.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chess::{Chess, ChessConfig};
use sanqi::game::perft_divide;
use sanqi::game::prelude::*;
use support::{check_perft_row, perft_budget, perft_rows, PerftRow};

fn rows() -> Vec<PerftRow> {
    perft_rows("chess.tsv")
}

fn config(label: &str) -> ChessConfig {
    ChessConfig {
        chess960: label.starts_with("frc_"),
    }
}

#[test]
fn perft_rows_match_reference() {
    let rows = rows();
    assert!(
        rows.len() >= 50,
        "expected the whole table, got {} rows",
        rows.len()
    );
    let mut run = 0;
    for row in rows.iter().filter(|r| r.nodes <= perft_budget()) {
        let mut pos = Chess::from_fen(&row.position, &config(&row.label)).unwrap();
        check_perft_row(&mut pos, row);
        run += 1;
    }
    assert!(run > 0);
}

/// The divided perft (the `go perft` form) sums to the same total.
#[test]
fn divide_sums_to_total() {
    for row in rows().iter().filter(|r| r.depth == 2) {
        let cfg = config(&row.label);
        let mut pos = Chess::from_fen(&row.position, &cfg).unwrap();
        let (lines, total) = perft_divide(&mut pos, row.depth, &cfg);
        assert_eq!(total, row.nodes, "{}", row.label);
        assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), total);
        for (text, _) in &lines {
            assert!(
                pos.parse_move(text, &cfg).is_ok(),
                "{}: {text} does not parse back",
                row.label
            );
        }
    }
}
