//! Perft of xiangqi against /work/shared/perft/xiangqi.tsv (Fairy-Stockfish, Pikafish, ElephantEye,
//! Sjaak II and pyffish agree on every row). Debug builds run the rows up to ~2 million nodes,
//! release builds (`cargo test --release`) every row.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::{Game, GameConfig};

const TSV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/perft/xiangqi.tsv"
));

fn rows() -> Vec<(String, String, u32, u64)> {
    TSV.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "bad row {l}");
            (
                cols[0].to_string(),
                cols[1].to_string(),
                cols[2].parse().unwrap(),
                cols[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_matches_reference() {
    let budget = if cfg!(debug_assertions) {
        2_000_000
    } else {
        u64::MAX
    };
    let config = GameConfig::default();
    let mut checked = 0;
    for (label, fen, depth, nodes) in rows() {
        if nodes > budget {
            continue;
        }
        let mut pos = Xiangqi::from_fen(&fen, &config).unwrap();
        let got = pos.perft(depth);
        assert_eq!(got, nodes, "{label} depth {depth}: {fen}");
        assert_eq!(pos.to_fen(), fen, "{label}: position restored after perft");
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} rows checked");
}

/// Walks the tree to depth 3 checking that the incremental Zobrist key equals a fresh one,
/// that undo restores FEN and key, and that the FEN round-trips at every node.
#[test]
fn hash_and_undo_consistent() {
    let config = GameConfig::default();
    fn walk(pos: &mut Xiangqi, depth: u32) {
        assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
        let again = Xiangqi::from_fen(&pos.to_fen(), &GameConfig::default()).unwrap();
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
            pos.make_move(m);
            walk(pos, depth - 1);
            pos.undo_move(m);
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(pos.hash(), key);
        }
    }
    for (_, fen, depth, _) in rows().into_iter().filter(|r| r.2 == 1) {
        let _ = depth;
        let mut pos = Xiangqi::from_fen(&fen, &config).unwrap();
        walk(&mut pos, 2);
    }
}
