//! The search finds the proven game value (with the right mate distance) of small games,
//! checked against brute-force minimax references that share no code with the search.

mod support;

use std::collections::HashMap;

use sanqi::game::prelude::*;
use sanqi::game::Plain;
use sanqi::search::{
    SearchControl, SearchEvent, SearchLimits, SearchOptions, SearchResult, SearchScore, Searcher,
    MATE,
};
use support::legal;
use support::toys::{
    negamax_reference, paranoid_reference, reachable, Connect4, Nim, TicTacToe, ToyMove,
};

fn run<G: Game>(
    searcher: &mut Searcher,
    pos: &G,
    depth: u32,
    options: SearchOptions,
) -> (SearchResult<G::Move>, Vec<SearchEvent<G::Move>>) {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    support::search(searcher, pos, &limits, &options, &SearchControl::new())
}

#[test]
fn nim_values_and_mate_distances_match_brute_force() {
    let mut searcher = Searcher::new(1);
    let mut memo = HashMap::new();
    for pile in 1..=30 {
        let mut pos = Plain(Nim::new(pile, 3, 2));
        let reference = negamax_reference(&mut pos, 0, &mut memo);
        let (result, _) = run(&mut searcher, &pos, 60, SearchOptions::default());
        assert_eq!(result.value, reference, "pile {pile}");
        assert_eq!(result.score, SearchScore::from_internal(reference));
        // The theory: the side to move loses exactly when the pile is a multiple of 4.
        assert_eq!(reference < 0, pile % 4 == 0, "pile {pile}");
        // The chosen move keeps the value.
        let best = result.best.expect("a legal move");
        assert!(legal(&pos).contains(&best));
        pos.make_move(best);
        let after = -negamax_reference(&mut pos, 1, &mut memo);
        assert_eq!(
            after, reference,
            "pile {pile}: best move {best:?} loses value"
        );
    }
}

#[test]
fn mate_scores_count_moves_not_plies() {
    let mut searcher = Searcher::new(1);
    // (pile, value, score, best move where one is forced), taking up to 3.
    for (pile, value, score, best) in [
        // Pile 3: mate in 1 ply = 1 move.
        (3, MATE - 1, SearchScore::Mate(1), Some(ToyMove(3))),
        // Pile 4: every move loses; the opponent takes the rest: mated in 2 plies = 1 move.
        (4, -(MATE - 2), SearchScore::Mate(-1), None),
        // Pile 5: take 1, the opponent takes 1..3, we take the rest: 3 plies = mate in 2.
        (5, MATE - 3, SearchScore::Mate(2), Some(ToyMove(1))),
    ] {
        let (r, _) = run(
            &mut searcher,
            &Plain(Nim::new(pile, 3, 2)),
            10,
            SearchOptions::default(),
        );
        assert_eq!(r.value, value, "pile {pile}");
        assert_eq!(r.score, score, "pile {pile}");
        if best.is_some() {
            assert_eq!(r.best, best, "pile {pile}");
        }
    }
}

#[test]
fn tictactoe_positions_match_brute_force() {
    let mut searcher = Searcher::new(1);
    let mut memo = HashMap::new();
    let positions = reachable(&Plain(TicTacToe::empty()), 10_000);
    assert!(positions.len() > 4000, "{} positions", positions.len());
    for (i, pos) in positions.iter().enumerate() {
        if i % 13 != 0 {
            continue;
        }
        let mut p = pos.clone();
        let reference = negamax_reference(&mut p, 0, &mut memo);
        let (result, _) = run(&mut searcher, &p, 40, SearchOptions::default());
        assert_eq!(result.value, reference, "position {}", p.to_fen());
        let best = result.best.expect("legal move");
        p.make_move(best);
        assert_eq!(
            -negamax_reference(&mut p, 1, &mut memo),
            reference,
            "{}",
            pos.to_fen()
        );
    }
}

#[test]
fn multipv_lines_carry_the_value_of_each_root_move() {
    let mut searcher = Searcher::new(1);
    let mut memo = HashMap::new();
    for fen in ["x........", "x...o....", "xo.......", "x.o.x...."] {
        let mut pos = Plain::<TicTacToe>::from_fen(fen, &Default::default()).expect("fen");
        let moves = legal(&pos);
        let options = SearchOptions {
            threads: 1,
            multipv: moves.len(),
            skill: None,
            policy_players: None,
        };
        searcher.clear();
        let (result, events) = run(&mut searcher, &pos, 40, options);
        let last_depth = result.depth;
        let lines: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                SearchEvent::Iteration(info) if info.depth == last_depth => Some(info.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(lines.len(), moves.len(), "{fen}");
        let mut seen = Vec::new();
        for (k, line) in lines.iter().enumerate() {
            assert_eq!(line.multipv, k + 1);
            let first = line.pv[0];
            assert!(!seen.contains(&first), "{fen}: {first:?} twice");
            seen.push(first);
            pos.make_move(first);
            let value = -negamax_reference(&mut pos, 1, &mut memo);
            pos.undo_move(first);
            assert_eq!(
                line.score,
                SearchScore::from_internal(value),
                "{fen} {first:?}"
            );
        }
        for pair in lines.windows(2) {
            let v = |s: SearchScore| match s {
                SearchScore::Cp(c) => c,
                SearchScore::Mate(m) if m > 0 => MATE - m,
                SearchScore::Mate(m) => -MATE - m,
            };
            assert!(
                v(pair[0].score) >= v(pair[1].score),
                "{fen}: lines out of order"
            );
        }
    }
}

#[test]
fn paranoid_search_matches_brute_force_for_three_and_four_players() {
    let mut searcher = Searcher::new(1);
    for players in [3usize, 4] {
        for max_take in [2u8, 3] {
            // Every root player in turn, sharing one table: entries of one root player must not
            // be read as another's.
            for to_move in 0..players {
                let mut memo = HashMap::new();
                for pile in 1..=16 {
                    let mut pos = Plain(Nim::new(pile, max_take, players));
                    pos.to_move = to_move;
                    let reference = paranoid_reference(&mut pos, to_move, 0, &mut memo);
                    let (result, _) = run(&mut searcher, &pos, 60, SearchOptions::default());
                    assert_eq!(
                        result.value, reference,
                        "{players} players, take {max_take}, pile {pile}, root {to_move}"
                    );
                    let best = result.best.expect("legal move");
                    pos.make_move(best);
                    let after = paranoid_reference(&mut pos, to_move, 1, &mut HashMap::new());
                    assert_eq!(after, reference, "pile {pile}: {best:?} loses value");
                }
            }
        }
    }
}

#[test]
fn several_threads_find_the_same_values() {
    let mut searcher = Searcher::new(4);
    let mut memo = HashMap::new();
    let options = SearchOptions {
        threads: 3,
        multipv: 1,
        skill: None,
        policy_players: None,
    };
    for pile in [7, 12, 21, 26] {
        let mut pos = Plain(Nim::new(pile, 3, 2));
        let reference = negamax_reference(&mut pos, 0, &mut memo);
        let (result, _) = run(&mut searcher, &pos, 60, options);
        assert_eq!(result.value, reference, "pile {pile}");
    }
    for fen in ["x........", "x...o....", "xo..x...."] {
        let mut pos = Plain::<TicTacToe>::from_fen(fen, &Default::default()).expect("fen");
        let reference = negamax_reference(&mut pos, 0, &mut memo);
        let (result, _) = run(&mut searcher, &pos, 40, options);
        assert_eq!(result.value, reference, "{fen}");
    }
    // A large tree with helpers: a legal move and nodes from all threads.
    let pos = Plain(Connect4::new());
    let (result, _) = run(&mut searcher, &pos, 7, options);
    assert!(legal(&pos).contains(&result.best.expect("move")));
    assert!(result.nodes > 0);
}

#[test]
fn connect4_finds_a_forced_win() {
    let mut searcher = Searcher::new(4);
    let mut pos = Plain::<Connect4>::from_fen("2233", &Default::default()).expect("moves");
    // After 2 2 3 3: the first player has columns 2 and 3 of the bottom row; 1 or 4 makes an
    // open three, so the win takes 3 plies and no defence helps.
    let (result, _) = run(&mut searcher, &pos, 12, SearchOptions::default());
    assert!(
        matches!(result.score, SearchScore::Mate(n) if n > 0),
        "{:?}",
        result.score
    );
    let plies = MATE - result.value;
    assert_eq!(plies, 3, "win in 3 plies expected, got {plies}");
    let best = result.best.expect("move");
    pos.make_move(best);
    // Every defence still loses with mate in 1 move (the search agrees from the other side).
    for m in legal(&pos) {
        pos.make_move(m);
        let (r, _) = run(&mut searcher, &pos, 6, SearchOptions::default());
        assert_eq!(r.value, MATE - 1, "after defence {m:?}");
        pos.undo_move(m);
    }
}
