//! Perft of every row of `shared/perft/chinese-checkers.tsv`, for the rule set of its `rules`
//! column (shallow rows in debug builds, all rows in release builds).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};
use sanqi::game::perft_divide;
use sanqi::game::prelude::*;
use support::{check_perft_row, perft_rows, PerftRow};

const PERFT_FILE: &str = "chinese-checkers.tsv";

/// Node budget per row in debug builds.
const DEBUG_MAX_NODES: u64 = 2_000_000;

fn config_for(rules: &str) -> ChineseCheckersConfig {
    let mut config = ChineseCheckersConfig::default();
    for rule in rules.split(',') {
        match rule {
            "standard" => {}
            "goal-lock" => config.rules.goal_lock = true,
            "no-foreign-stop" => config.rules.no_foreign_stop = true,
            other => panic!("unknown rule set `{other}` in {PERFT_FILE}"),
        }
    }
    config
}

/// The rows; `label` is the rule set.
fn rows() -> Vec<PerftRow> {
    perft_rows(PERFT_FILE)
}

#[test]
fn perft_matches_reference_file() {
    let rows = rows();
    assert!(
        rows.len() >= 100,
        "expected the whole file, got {}",
        rows.len()
    );
    let mut ran = 0;
    for row in &rows {
        if cfg!(debug_assertions) && row.nodes > DEBUG_MAX_NODES {
            continue;
        }
        let config = config_for(&row.label);
        let mut pos = ChineseCheckers::from_fen(&row.position, &config).unwrap();
        assert_eq!(
            pos.rules().to_string(),
            row.label,
            "rules carried by the position"
        );
        check_perft_row(&mut pos, row);
        ran += 1;
    }
    assert!(ran >= 60, "too few rows ran: {ran}");
}

/// The generic trait perft (list-based, no bulk counting) agrees with the fast one, and the
/// divide sums up, on the shallow rows.
#[test]
fn generic_perft_and_divide_agree() {
    fn generic<G: Game>(g: &mut G, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = G::MoveList::default();
        g.generate_moves(&mut list);
        let mut n = 0;
        for &m in sanqi::game::MoveBuffer::moves(&list) {
            g.make_move(m);
            n += generic(g, depth - 1);
            g.undo_move(m);
        }
        n
    }
    for row in rows().iter().filter(|r| r.nodes <= 200_000) {
        let config = config_for(&row.label);
        let mut pos = ChineseCheckers::from_fen(&row.position, &config).unwrap();
        assert_eq!(generic(&mut pos, row.depth), row.nodes, "{}", row.position);
        let (lines, total) = perft_divide(&mut pos, row.depth, &config);
        assert_eq!(total, row.nodes);
        assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), row.nodes);
    }
}
