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

/// The key the search loads the table's line for before making a move (`key_after`) is the key
/// after it (a fresh one, `compute_hash`) for every move that neither takes a castling right
/// away nor gives an en-passant square (read from the FEN, not from the key code); over the
/// table's positions and two plies below them.
#[test]
fn key_after_is_the_key_after_the_move() {
    fn fields(pos: &Chess) -> (String, String) {
        let fen = pos.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        (f[2].to_string(), f[3].to_string())
    }
    fn walk(pos: &mut Chess, depth: u32, counts: &mut [usize; 2]) {
        let mut list = Default::default();
        pos.generate_moves(&mut list);
        for &m in list.iter() {
            let before = fields(pos);
            let predicted = pos.key_after(m);
            pos.make_move(m);
            let after = fields(pos);
            if after.0 == before.0 && after.1 == "-" {
                assert_eq!(
                    predicted,
                    Some(pos.compute_hash()),
                    "{} after {m:?}",
                    pos.to_fen()
                );
                counts[0] += 1;
            } else {
                counts[1] += 1;
            }
            if depth > 1 {
                walk(pos, depth - 1, counts);
            }
            pos.undo_move(m);
        }
    }
    let mut counts = [0usize; 2];
    for row in rows().iter().filter(|r| r.depth == 1) {
        let mut pos = Chess::from_fen(&row.position, &config(&row.label)).unwrap();
        walk(&mut pos, 2, &mut counts);
    }
    // Most moves are predicted exactly, even in these positions full of castling rights and
    // en-passant chances (7,895 against 888).
    assert!(counts[0] > 5 * counts[1], "{counts:?}");
}
