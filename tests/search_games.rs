//! The generic search on the real games: legal best moves, exact node limits, and several
//! threads, for chess, xiangqi and Chinese checkers with 2, 3 and 6 players (paranoid search).

mod support;

use sanqi::game::chess::Chess;
use sanqi::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::search::{SearchControl, SearchLimits, SearchOptions, Searcher};
use support::{iterations, legal, search};

fn check_game<G: Game>(pos: &G, nodes: u64) {
    let mut searcher = Searcher::new(8);
    for threads in [1usize, 2] {
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        let options = SearchOptions {
            threads,
            multipv: 1,
            skill: None,
            policy_players: None,
        };
        let (r, events) = search(&mut searcher, pos, &limits, &options, &SearchControl::new());
        if threads == 1 {
            // Deterministic with one thread; with two the helper thread shares the node budget.
            assert_eq!(r.nodes, nodes, "{}", G::NAME);
            assert!(r.depth >= 2, "{}: depth {}", G::NAME, r.depth);
        }
        assert!(
            r.best.is_some_and(|b| legal(pos).contains(&b)),
            "{}",
            G::NAME
        );
        assert!(r.depth >= 1, "{}: depth {}", G::NAME, r.depth);
        // Every reported pv is a legal line.
        for it in &iterations(&events) {
            let mut p = pos.clone();
            for &m in &it.pv {
                assert!(legal(&p).contains(&m), "{}: illegal pv", G::NAME);
                p.make_move(m);
            }
        }
    }
}

#[test]
fn chess_search_smoke() {
    check_game(&Chess::startpos(&Default::default()), 30_000);
}

#[test]
fn xiangqi_search_smoke() {
    check_game(&Xiangqi::startpos(&Default::default()), 30_000);
}

#[test]
fn chinese_checkers_search_smoke() {
    for players in [2u8, 3, 6] {
        let config = ChineseCheckersConfig {
            players,
            ..ChineseCheckersConfig::default()
        };
        let pos = ChineseCheckers::startpos(&config);
        // Forward jumps never run out: the game must bound its quiescence search.
        assert!(pos.quiescence_plies() < 8);
        check_game(&pos, 20_000);
        // Paranoid search (3 and 6 players) and two-player search reach a useful depth.
        let r = Searcher::new(8).search(
            &pos,
            &SearchLimits {
                nodes: Some(50_000),
                ..SearchLimits::default()
            },
            &SearchOptions::default(),
            None,
            &SearchControl::new(),
            &mut |_| {},
        );
        assert!(r.depth >= 3, "{players} players: depth {}", r.depth);
    }
}
