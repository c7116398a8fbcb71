//! `bench`: a fixed set of positions from all three games searched to a fixed depth with one
//! thread and a fresh table each. The total node count is the signature: it changes only when
//! search or evaluation changes (and so is a cheap check that a refactoring changed nothing).

use std::time::Instant;

use crate::game::{GameConfig, GameKind};
use crate::search::{SearchControl, SearchLimits, SearchOptions, Searcher};
use crate::with_game;

/// Default depth per game (chess, xiangqi, Chinese checkers), picked so the whole bench runs in a
/// few seconds in a release build.
pub const DEFAULT_DEPTHS: [u32; 3] = [13, 10, 7];

/// The bench positions: (game, position string).
pub const POSITIONS: &[(GameKind, &str)] = &[
    (
        GameKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        GameKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (GameKind::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        GameKind::Chess,
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        GameKind::Chess,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        GameKind::Chess,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (GameKind::Chess, "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"),
    (
        GameKind::Xiangqi,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        GameKind::Xiangqi,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ),
    (
        GameKind::Xiangqi,
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    ),
    (
        GameKind::Xiangqi,
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    ),
    (
        GameKind::ChineseCheckers,
        "D/DD/DDD/DDDD/13/12/11/10/9/10/11/12/13/AAAA/AAA/AA/A AD A 0",
    ),
    (
        GameKind::ChineseCheckers,
        "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0",
    ),
];

fn depth_for(kind: GameKind, depth: Option<u32>) -> u32 {
    let d = match kind {
        GameKind::Chess => DEFAULT_DEPTHS[0],
        GameKind::Xiangqi => DEFAULT_DEPTHS[1],
        GameKind::ChineseCheckers => DEFAULT_DEPTHS[2],
    };
    // A depth given on the command line moves every game's depth by the same amount.
    match depth {
        Some(x) => {
            (i64::from(d) + i64::from(x) - i64::from(DEFAULT_DEPTHS[0])).clamp(1, 100) as u32
        }
        None => d,
    }
}

/// Runs the bench and returns its report: one line per position, then the totals.
pub fn run(depth: Option<u32>, searcher: &mut Searcher) -> String {
    let mut out = String::new();
    let mut total_nodes = 0u64;
    let start = Instant::now();
    let config = GameConfig::default();
    for (i, &(kind, fen)) in POSITIONS.iter().enumerate() {
        let game = match kind.from_fen(fen, &config) {
            Ok(g) => g,
            Err(e) => {
                out.push_str(&format!("position {} rejected: {e}\n", i + 1));
                continue;
            }
        };
        searcher.clear();
        let limits = SearchLimits {
            depth: Some(depth_for(kind, depth)),
            ..SearchLimits::default()
        };
        let options = SearchOptions {
            threads: 1,
            multipv: 1,
            skill: None,
        };
        let control = SearchControl::new();
        let nodes = with_game!(&game, g => {
            let r = searcher.search(g, &limits, &options, None, &control, &mut |_| {});
            r.nodes
        });
        total_nodes += nodes;
        out.push_str(&format!(
            "position {:>2} {:<15} nodes {nodes}\n",
            i + 1,
            kind.name()
        ));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    out.push_str(&format!("===========================\nTotal time (ms) : {ms}\nNodes searched  : {total_nodes}\nNodes/second    : {}\n", total_nodes * 1000 / ms));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bench_depth_moves_every_game_by_the_same_amount_both_ways() {
        let depths = |d: Option<u32>| {
            [
                GameKind::Chess,
                GameKind::Xiangqi,
                GameKind::ChineseCheckers,
            ]
            .map(|k| depth_for(k, d))
        };
        assert_eq!(depths(None), DEFAULT_DEPTHS);
        assert_eq!(depths(Some(DEFAULT_DEPTHS[0])), DEFAULT_DEPTHS);
        assert_eq!(depths(Some(8)), [8, 5, 2]);
        assert_eq!(depths(Some(15)), [15, 12, 9]);
        assert_eq!(depths(Some(1)), [1, 1, 1]);
        assert_eq!(depths(Some(u32::MAX)), [100, 100, 100]);
    }
}
