//! `bench`: a fixed set of positions from all three games searched to a fixed depth with one
//! thread and a fresh table each. The total node count is the signature: it changes only when
//! search or evaluation changes (and so is a cheap check that a refactoring changed nothing).

use std::time::Instant;

use crate::game::{with_kind, GameConfigs, GameKind};
use crate::search::{SearchControl, SearchLimits, SearchOptions, Searcher};

/// The depth every game's bench positions are searched to: the game's own
/// ([`crate::game::SearchHints::BENCH_DEPTH`]), moved by the same amount as `depth` differs from the
/// first game's (chess) default. Clamped to 1..=100.
fn depth_for(kind: GameKind, depth: Option<u32>) -> u32 {
    let d = kind.bench().1;
    let first = GameKind::ALL.first().map_or(d, |k| k.bench().1);
    match depth {
        Some(x) => (i64::from(d) + i64::from(x) - i64::from(first)).clamp(1, 100) as u32,
        None => d,
    }
}

/// Runs the bench and returns its report: one line per position, then the totals.
pub fn run(depth: Option<u32>, searcher: &mut Searcher) -> String {
    let mut out = String::new();
    let mut total_nodes = 0u64;
    let start = Instant::now();
    let configs = GameConfigs::default();
    let positions = GameKind::ALL
        .iter()
        .flat_map(|&kind| kind.bench().0.iter().map(move |&fen| (kind, fen)));
    for (i, (kind, fen)) in positions.enumerate() {
        searcher.clear();
        let limits = SearchLimits {
            depth: Some(depth_for(kind, depth)),
            ..SearchLimits::default()
        };
        let options = SearchOptions {
            threads: 1,
            multipv: 1,
            skill: None,
            policy_players: None,
        };
        let control = SearchControl::new();
        let nodes = with_kind!(kind, G => {
            match <G as crate::game::Notation>::from_fen(fen, configs.get::<G>()) {
                Ok(g) => searcher.search(&g, &limits, &options, None, &control, &mut |_| {}).nodes,
                Err(e) => {
                    out.push_str(&format!("position {} rejected: {e}\n", i + 1));
                    continue;
                }
            }
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
            GameKind::ALL
                .iter()
                .map(|&k| depth_for(k, d))
                .collect::<Vec<_>>()
        };
        assert_eq!(depths(None), [13, 10, 7]);
        assert_eq!(depths(Some(13)), [13, 10, 7]);
        assert_eq!(depths(Some(8)), [8, 5, 2]);
        assert_eq!(depths(Some(15)), [15, 12, 9]);
        assert_eq!(depths(Some(1)), [1, 1, 1]);
        assert_eq!(depths(Some(u32::MAX)), [100, 100, 100]);
    }
}
