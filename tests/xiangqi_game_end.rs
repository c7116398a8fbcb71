//! Game end in xiangqi: mate and stalemate lose for the side to move, perpetual check loses for
//! the checking side, mutual perpetual check and other repetitions draw (on the third
//! occurrence), and 120 plies without a capture draw. Every move sequence was replayed in
//! pyffish to confirm it is legal and which moves give check.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use sanqi::game::prelude::*;
use sanqi::game::xiangqi::{Xiangqi, XiangqiConfig};
use sanqi::game::Outcome;
use support::parse;

fn pos(fen: &str) -> Xiangqi {
    support::pos(fen)
}

/// Plays `moves` from `fen` and returns the rule outcome after each ply.
fn play(fen: &str, moves: &str) -> (Xiangqi, Vec<Option<Outcome>>) {
    let mut p = pos(fen);
    let c = XiangqiConfig::default();
    let mut seen = Vec::new();
    for m in moves.split_whitespace() {
        let mv = parse(&p, m, &c);
        p.make_move(mv);
        seen.push(p.rule_outcome());
    }
    (p, seen)
}

/// Plays `moves` from `fen`, with no game end before the last move; gives the position and
/// the outcome after the last move.
fn ends_on_the_last_move(fen: &str, moves: &str) -> (Xiangqi, Option<Outcome>) {
    let (p, mut seen) = play(fen, moves);
    let end = seen.pop().flatten();
    assert!(seen.iter().all(Option::is_none), "{seen:?}");
    (p, end)
}

#[test]
fn checkmate_loses() {
    let p = pos("3k5/9/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(p.rule_outcome(), None);
    assert_eq!(p.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn stalemate_loses() {
    // Black: general d9, not in check, no move (d8 attacked, e9 faces the red general).
    let p = pos("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!p.in_check());
    assert_eq!(p.outcome(), Some(Outcome::Win(0)));
    // Red stalemated by a soldier, and by a horse.
    assert_eq!(
        pos("5k3/9/9/9/9/9/9/9/4p4/3K5 w - - 0 1").outcome(),
        Some(Outcome::Win(1))
    );
    assert_eq!(
        pos("5k3/9/9/9/9/9/9/5n3/9/3K5 w - - 0 1").outcome(),
        Some(Outcome::Win(1))
    );
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Red's chariot checks on a9 / a8 while Black's general steps f9 / f8.
    let fen = "5k3/9/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let (p, end) = ends_on_the_last_move(fen, "a7a9 f9f8 a9a8 f8f9 a8a9 f9f8 a9a8 f8f9 a8a9");
    assert_eq!(end, Some(Outcome::Win(1)), "third occurrence");
    assert_eq!(p.outcome(), Some(Outcome::Win(1)));
    // The same with colours swapped: Black checks and loses.
    let fen = "3k5/9/9/9/9/9/9/r8/9/5K3 b - - 0 1";
    let (_, end) = ends_on_the_last_move(fen, "a2a0 f0f1 a0a1 f1f0 a1a0 f0f1 a0a1 f1f0 a1a0");
    assert_eq!(end, Some(Outcome::Win(0)));
}

#[test]
fn mutual_perpetual_check_draws() {
    // Each horse move uncovers or becomes the one screen of a cannon: every move checks.
    let fen = "3c5/C4k3/9/2nN5/9/9/9/9/9/3K5 w - - 0 1";
    let p = pos(fen);
    assert!(p.in_check());
    let (_, end) = ends_on_the_last_move(fen, "d6c8 c6d8 c8d6 d8c6 d6c8 c6d8 c8d6 d8c6");
    assert_eq!(end, Some(Outcome::Draw));
}

#[test]
fn plain_repetition_draws() {
    let fen = "5k3/9/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let (_, end) = ends_on_the_last_move(fen, "a7a6 f9f8 a6a7 f8f9 a7a6 f9f8 a6a7 f8f9");
    assert_eq!(end, Some(Outcome::Draw));
    // Checks on only some of Red's moves in the cycle are not perpetual: draw.
    let (_, end) = ends_on_the_last_move(fen, "a7a9 f9f8 a9a7 f8f9 a7a9 f9f8 a9a7 f8f9");
    assert_eq!(end, Some(Outcome::Draw));
}

#[test]
fn null_move_breaks_repetition_window() {
    let fen = "5k3/9/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let (mut p, _) = play(fen, "a7a6 f9f8 a6a7 f8f9 a7a6 f9f8 a6a7");
    p.make_null_move();
    // Same position as after ... f8f9 would give, but reached through a pass: no repetition.
    assert_eq!(p.rule_outcome(), None);
    p.undo_null_move();
    let m = parse(&p, "f8f9", &XiangqiConfig::default());
    p.make_move(m);
    assert_eq!(p.rule_outcome(), Some(Outcome::Draw));
}

#[test]
fn move_limit_of_120_plies() {
    let fen = "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 118 60";
    let (p, seen) = play(fen, "a7a6 d9d8");
    assert_eq!(seen, vec![None, Some(Outcome::Draw)]);
    assert_eq!(p.plies_since_capture(), 120);
    assert!(p.to_fen().ends_with(" 120 61"), "{}", p.to_fen());
    // A capture resets the count.
    let (p, seen) = play("3k5/9/R8/p8/9/9/9/9/9/4K4 w - - 119 60", "a7a6 d9d8");
    assert_eq!(seen, vec![None, None]);
    assert_eq!(p.plies_since_capture(), 1);
    // A mate given on the 120th ply is still a mate.
    let (p, seen) = play("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 119 60", "a7d7");
    assert_eq!(seen, vec![None]);
    assert_eq!(p.outcome(), Some(Outcome::Win(0)));
}
