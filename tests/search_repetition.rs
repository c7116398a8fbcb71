//! Repetition as the search sees it (`SearchHints::search_outcome`): a position that repeats one inside
//! the search path is a draw at once (chess) or judged by the perpetual-check rule at once
//! (xiangqi), while the game's own rule still needs the third occurrence.

#![allow(clippy::expect_used)]

mod support;

use sanqi::game::chess::Chess;
use sanqi::game::prelude::*;
use sanqi::game::xiangqi::Xiangqi;
use sanqi::game::Outcome;

fn play<G: Game>(pos: &mut G, moves: &str) {
    support::play(pos, moves, &G::Config::default());
}

#[test]
fn chess_twofold_inside_the_search_path_is_a_draw() {
    let mut pos = Chess::startpos(&Default::default());
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    // The start position occurs for the second time.
    assert_eq!(pos.rule_outcome(), None);
    assert_eq!(pos.search_outcome(4, true), Some(Outcome::Draw));
    assert_eq!(pos.search_outcome(8, true), Some(Outcome::Draw));
    // The first occurrence is before the search path: the rules decide.
    assert_eq!(pos.search_outcome(3, true), None);
    assert_eq!(pos.search_outcome(4, false), None);
    // The third occurrence ends the game whatever the path.
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.rule_outcome(), Some(Outcome::Draw));
    assert_eq!(pos.search_outcome(0, true), Some(Outcome::Draw));
    assert_eq!(pos.search_outcome(0, false), Some(Outcome::Draw));
}

#[test]
fn chess_twofold_does_not_reach_across_a_capture() {
    let mut pos: Chess = support::pos("4k3/8/8/8/8/8/1p6/1R2K3 w - - 0 1");
    play(&mut pos, "e1d1 e8d8 d1e1 d8e8");
    assert_eq!(pos.search_outcome(4, true), Some(Outcome::Draw));
    // The rook takes the pawn and comes back: the same squares, but the earlier positions had
    // the pawn, and the capture resets the reversible plies.
    play(&mut pos, "b1b2 e8d8 b2b1 d8e8");
    assert_eq!(pos.search_outcome(8, true), None);
    play(&mut pos, "e1d1 e8d8 d1e1 d8e8");
    assert_eq!(pos.search_outcome(4, true), Some(Outcome::Draw));
    assert_eq!(pos.search_outcome(3, true), None);
}

#[test]
fn xiangqi_twofold_inside_the_search_path_judges_perpetual_check() {
    // Red's chariot checks on every move; the black general steps between d9 and e9.
    let mut pos: Xiangqi = support::pos("4k4/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1");
    play(&mut pos, "d0e0 e9d9 e0d0 d9e9");
    assert_eq!(pos.rule_outcome(), None);
    // Red checked perpetually: Black wins.
    assert_eq!(pos.search_outcome(4, true), Some(Outcome::Win(1)));
    assert_eq!(pos.search_outcome(3, true), None);
    assert_eq!(pos.search_outcome(4, false), None);
    play(&mut pos, "d0e0 e9d9 e0d0 d9e9");
    assert_eq!(pos.rule_outcome(), Some(Outcome::Win(1)));
}

#[test]
fn xiangqi_twofold_without_checks_is_a_draw() {
    let mut pos = Xiangqi::startpos(&Default::default());
    play(&mut pos, "h0g2 h9g7 g2h0 g7h9");
    assert_eq!(pos.rule_outcome(), None);
    assert_eq!(pos.search_outcome(4, true), Some(Outcome::Draw));
    assert_eq!(pos.search_outcome(2, true), None);
}
