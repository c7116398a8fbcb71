//! Perft of xiangqi against /work/shared/perft/xiangqi.tsv (Fairy-Stockfish, Pikafish, ElephantEye,
//! Sjaak II and pyffish agree on every row). Debug builds run the rows up to ~2 million nodes,
//! release builds (`cargo test --release`) every row.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use support::{check_perft_row, perft_budget, perft_rows, PerftRow};

fn rows() -> Vec<PerftRow> {
    perft_rows("xiangqi.tsv")
}

#[test]
fn perft_matches_reference() {
    let config = XiangqiConfig::default();
    let mut checked = 0;
    for row in rows().iter().filter(|r| r.nodes <= perft_budget()) {
        let mut pos = Xiangqi::from_fen(&row.position, &config).unwrap();
        // The FEN of the table is the one we write.
        assert_eq!(pos.to_fen(), row.position, "{}", row.label);
        check_perft_row(&mut pos, row);
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} rows checked");
}

/// Walks the tree to depth 3 checking that the incremental Zobrist key equals a fresh one
/// (and the key predicted before each move, `key_after`), that undo restores FEN and key, and that the FEN round-trips at every node.
#[test]
fn hash_and_undo_consistent() {
    fn walk(pos: &mut Xiangqi, depth: u32) {
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
        let again = support::pos::<Xiangqi>(&pos.to_fen());
        assert_eq!(again.hash(), pos.hash());
        assert_eq!(again.in_check(), pos.in_check());
        if depth == 0 {
            return;
        }
        let mut list = Default::default();
        pos.generate_moves(&mut list);
        for &m in list.iter() {
            let fen = pos.to_fen();
            let key = pos.hash();
            // The key the search loads the table's line for before making the move.
            let predicted = pos.key_after(m);
            pos.make_move(m);
            assert_eq!(predicted, Some(pos.compute_hash()), "{fen} {m:?}");
            walk(pos, depth - 1);
            pos.undo_move(m);
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(pos.hash(), key);
        }
    }
    for row in rows().into_iter().filter(|r| r.depth == 1) {
        let mut pos: Xiangqi = support::pos(&row.position);
        walk(&mut pos, 2);
    }
}
